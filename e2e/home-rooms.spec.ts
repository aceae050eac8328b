import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Home: a member's rooms come first, each with what others posted and said since the member last
// opened it and a live badge while someone hosts a session there; signed out, the home page shows
// what is live in public rooms and the week's busiest moments — never a gated room's.

const yourRoom = (page: Page, name: string) => page.getByTestId("your-room").filter({ hasText: name });

async function postAs(
  client: Awaited<ReturnType<typeof signedInClient>>,
  roomId: string,
  authorId: string,
  title: string,
): Promise<string> {
  const { data, error } = await client
    .from("posts")
    .insert({
      room_id: roomId,
      author_id: authorId,
      title,
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 240,
    })
    .select("id")
    .single();
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

/** Dark mode at a desktop width too (checkPage takes the phone in dark). */
async function darkDesktopScreenshot(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `e2e/screenshots/${name}-dark-1280.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

test("your rooms: what is new since your last visit, and a live badge while another person hosts", async ({ page }) => {
  const errors = await watchConsole(page);
  const [ada, bo] = await Promise.all([createConfirmedUser("home-ada"), createConfirmedUser("home-bo")]);
  const boClient = await signedInClient(bo.email, bo.password);
  const room = await createRoomAs(boClient, "home-mine");
  await addMember(room.id, ada.id);

  // Ada opens the room: from then on, only what comes after is new.
  await signInWithPassword(page, ada.email, ada.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: room.name })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your rooms" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your rooms" })).toBeVisible();
  await expect(yourRoom(page, room.name)).toContainText("nothing new");
  await expect(yourRoom(page, room.name).getByTestId("new-since")).toHaveCount(0);

  // Bo posts and comments.
  const postId = await postAs(boClient, room.id, bo.id, "Fresh upload");
  const commented = await boClient
    .from("moments")
    .insert({ post_id: postId, author_id: bo.id, at_seconds: 42, body: "listen to this bit" });
  expect(commented.error).toBeNull();
  await page.reload();
  await expect(yourRoom(page, room.name).getByTestId("new-since")).toHaveText("1 new post · 1 new comment since your last visit");

  // Bo hosts a session: Ada's room shows it live, and so does "Live now".
  const started = await boClient.rpc("start_listening_session", { room_id: room.id, post_id: postId });
  expect(started.error).toBeNull();
  const sessionId = (started.data as { id: string }).id;
  const marked = await boClient.rpc("mark_here", { target_room: room.id, tab: randomUUID(), in_session: sessionId, playing_post: postId });
  expect(marked.error).toBeNull();
  await page.reload();
  await expect(yourRoom(page, room.name).getByText(/^Live/)).toBeVisible();
  await expect(yourRoom(page, room.name).getByTestId("here-now-count")).toHaveAccessibleName(/^1 here now/);
  const live = page.getByTestId("live-session").filter({ hasText: room.name });
  await expect(live).toContainText("Fresh upload");
  await expect(live.getByRole("link", { name: room.name })).toHaveAttribute("href", `/r/${room.slug}/listen`);
  await checkPage(page, "home-your-rooms");
  await darkDesktopScreenshot(page, "home-your-rooms");

  // Opening the room again: nothing is new any more.
  await page.goto(`/r/${room.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: room.name })).toBeVisible();
  await page.goto("/");
  await expect(yourRoom(page, room.name).getByTestId("new-since")).toHaveCount(0);
  await boClient.rpc("end_listening_session", { session_id: sessionId });
  expect(errors).toEqual([]);
});

test("signed out, home shows a public room's live session and busiest moment — never a gated room's", async ({ page }) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("home-pitch");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const open = await createRoomAs(ownerClient, "home-open");
  const gated = await createRoomAs(ownerClient, "home-gated", true);
  const openPost = await postAs(ownerClient, open.id, owner.id, `Open anthem ${open.slug.slice(-5)}`);
  const gatedPost = await postAs(ownerClient, gated.id, owner.id, `Secret anthem ${gated.slug.slice(-5)}`);
  // The busiest moments of the week: the open room's one more than any the database holds, the gated
  // room's more still (written by the service role: the comment rate limit is not the subject).
  const { data: busiestSoFar } = await service.rpc("top_moments", { max_moments: 1 });
  const count = ((busiestSoFar as { comments: number }[] | null)?.[0]?.comments ?? 0) + 1;
  const comments = (postId: string, body: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ post_id: postId, author_id: owner.id, at_seconds: 90 + (i % 8), body: `${body} ${i}` }));
  expect((await service.from("moments").insert(comments(openPost, "what a build", count))).error).toBeNull();
  expect((await service.from("moments").insert(comments(gatedPost, "members-only whisper", count + 10))).error).toBeNull();
  const sessions = await Promise.all([open, gated].map((room) => ownerClient.rpc("start_listening_session", { room_id: room.id })));
  for (const started of sessions) expect(started.error).toBeNull();
  // The owner listens in each: sessions with listeners come first.
  for (const [i, room] of [open, gated].entries()) {
    const marked = await ownerClient.rpc("mark_here", {
      target_room: room.id,
      tab: randomUUID(),
      in_session: (sessions[i].data as { id: string }).id,
    });
    expect(marked.error).toBeNull();
  }

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Cuepoint" })).toBeVisible();
  const liveNow = page.getByRole("region", { name: "Live now" });
  await expect(liveNow.getByTestId("live-session").filter({ hasText: open.name })).toBeVisible();
  await expect(liveNow).not.toContainText(gated.name);
  const moments = page.getByRole("region", { name: "This week's moments" });
  const busiest = moments.getByTestId("top-moment").filter({ hasText: `Open anthem ${open.slug.slice(-5)}` });
  await expect(busiest).toContainText("1:30");
  await expect(busiest).toContainText(`${count} comments`);
  await expect(busiest.getByRole("link")).toHaveAttribute("href", `/r/${open.slug}/p/${openPost}`);
  await expect(page.getByRole("main")).not.toContainText("Secret anthem");
  await expect(page.getByRole("main")).not.toContainText("members-only whisper");
  await checkPage(page, "home-signed-out");
  await darkDesktopScreenshot(page, "home-signed-out");

  for (const started of sessions) await ownerClient.rpc("end_listening_session", { session_id: (started.data as { id: string }).id });
  expect(errors).toEqual([]);
});

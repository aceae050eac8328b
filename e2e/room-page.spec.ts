// A room leads with its music: a compact header (cover, name, members, gate, Join/Leave, who is here,
// a live session), the feed right under it with comment counts and last activity (a new comment
// bumps the count live), "Add a post" a button that keeps what was typed; the directory's card says
// when the room was last active and that it is live. On a post's page a non-member joins in place:
// the player keeps playing and the comment box opens; a gated room's refusal shows right there.
import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

const seconds = 40;
const phone = { width: 390, height: 844 };

/** A room with two uploaded tones (the newer one with two comments from a friend), its owner and the friend. */
async function roomWithPosts(label: string) {
  const owner = await createConfirmedUser(`${label}-owner`);
  const friend = await createConfirmedUser(`${label}-friend`);
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, label);
  await service.from("rooms").update({ description: "Long tones, slow drones and the people who love them." }).eq("id", room.id);
  const postIds: string[] = [];
  for (const title of ["An older tone", "Forty seconds of tone"]) {
    const path = `${room.id}/${owner.id}/${randomUUID()}.wav`;
    const stored = await ownerClient.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
    if (stored.error) throw stored.error;
    const { data, error } = await ownerClient
      .from("posts")
      .insert({ room_id: room.id, author_id: owner.id, title, media_kind: "upload", storage_path: path, duration_seconds: seconds })
      .select("id")
      .single();
    if (error || !data) throw error;
    postIds.push(data.id as string);
  }
  await service.from("memberships").insert({ room_id: room.id, user_id: friend.id });
  const friendClient = await signedInClient(friend.email, friend.password);
  for (const body of ["Lovely", "That swell at 0:20"]) {
    const { error } = await friendClient.from("moments").insert({ post_id: postIds[1], author_id: friend.id, body } as never);
    if (error) throw error;
  }
  return { owner, friend, friendClient, room, newest: postIds[1], older: postIds[0] };
}

const firstCard = (page: Page) => page.getByTestId("post-card").first();

/** The visible controls in the page's main part filled with the brand colour (primary buttons), by their text. */
async function primaryActions(page: Page): Promise<string[]> {
  return page.locator("main").evaluate((main) => {
    const probe = document.createElement("span");
    probe.className = "bg-accent";
    document.body.append(probe);
    const brand = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return [...main.querySelectorAll("a, button, summary")]
      .filter((element) => element.checkVisibility() && getComputedStyle(element).backgroundColor === brand)
      .map((element) => element.textContent?.trim() ?? "");
  });
}

/** Every control in the room's header and "Add a post" is at least 44 px tall. */
async function expectThumbSized(page: Page) {
  const heights = await page
    .locator('main section[aria-labelledby="room-name"] :is(a, button, summary), [data-testid="add-post"] > summary')
    .evaluateAll((elements) =>
      elements
        .filter((element) => (element as HTMLElement).offsetParent !== null)
        .map((element) => ({ text: element.textContent?.trim(), height: element.getBoundingClientRect().height })),
    );
  expect(heights.length).toBeGreaterThan(0);
  for (const { text, height } of heights) expect(height, `"${text}" is ${height} px tall`).toBeGreaterThanOrEqual(44);
}

test("the room leads with its music: first post on a phone's first screen, counts and last activity on the cards, a new comment counted live, Add a post keeps what was typed, and the directory card is live", async ({
  page,
}) => {
  test.slow();
  const errors = await watchConsole(page);
  const { owner, friend, friendClient, room, newest } = await roomWithPosts("leads-with-music");

  await page.setViewportSize(phone);
  await signInWithPassword(page, owner.email, owner.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: room.name })).toBeVisible();

  // On a 390 px phone the first post is on the first screen, whole.
  const box = await firstCard(page).boundingBox();
  expect(box, "the first post card is laid out").not.toBeNull();
  expect(box!.y + box!.height, "the first post card ends within the first screen").toBeLessThanOrEqual(phone.height);
  await expect(firstCard(page)).toContainText("Forty seconds of tone");
  await expect(firstCard(page).getByTestId("post-activity")).toContainText("2 comments");
  await expect(firstCard(page).getByTestId("post-activity")).toContainText(/active (just now|\d+ min ago)/);
  await expect(page.getByTestId("post-card").nth(1).getByTestId("post-activity")).toHaveText(/No comments/);

  // The header: members, gate, the owner's line and Settings; here now (the owner, live).
  await expect(page.getByText("2 members")).toBeVisible();
  await expect(page.getByTestId("room-membership")).toContainText("You own this room.");
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("href", `/r/${room.slug}/settings`);
  const hereNow = page.getByRole("region", { name: "Here now" });
  await expect(hereNow.getByRole("status")).toHaveText("Live", { timeout: 20_000 });
  await expect(hereNow.getByRole("list", { name: "Members here now" }).getByRole("listitem")).toHaveCount(1);
  await expectThumbSized(page);
  // One primary action: the owner's "Start listening together".
  expect(await primaryActions(page)).toEqual(["Start listening together"]);

  // A friend comments: the card's count moves without a reload.
  const { error } = await friendClient.from("moments").insert({ post_id: newest, author_id: friend.id, body: "Third!" } as never);
  expect(error).toBeNull();
  await expect(firstCard(page).getByTestId("post-activity")).toContainText("3 comments", { timeout: 10_000 });

  // "Add a post" opens the form; closing and reopening keeps what was typed.
  const form = page.getByRole("form", { name: "Share a link" });
  await expect(form).toBeHidden();
  await page.getByText("Add a post", { exact: false }).first().click();
  await expect(form).toBeVisible();
  await form.getByLabel("Title").fill("Half typed");
  // With the form open, its own button is the one primary action.
  expect(await primaryActions(page)).toEqual([await form.locator('button[type="submit"]').innerText()]);
  await page.getByTestId("add-post").locator("summary").click();
  await expect(form).toBeHidden();
  await page.getByTestId("add-post").locator("summary").click();
  await expect(form.getByLabel("Title")).toHaveValue("Half typed");
  await page.getByTestId("add-post").locator("summary").click();

  await page.setViewportSize({ width: 1280, height: 900 });
  await checkPage(page, "room-leads-with-music");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "e2e/screenshots/room-leads-with-music-dark-1280.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // A session goes live: the banner says so, with the way in.
  await service
    .from("listening_sessions")
    .insert({ room_id: room.id, started_by: owner.id, host_id: owner.id, host_seen_at: new Date().toISOString() } as never);
  await page.reload();
  await expect(page.getByTestId("live-session-banner")).toContainText("Listening together now");
  await expect(page.getByTestId("live-session-banner").getByRole("link", { name: /Join/ })).toHaveAttribute(
    "href",
    `/r/${room.slug}/listen`,
  );
  await page.setViewportSize(phone);
  const withBanner = await firstCard(page).boundingBox();
  expect(withBanner!.y + withBanner!.height, "with a session on, the first post is still on the first screen").toBeLessThanOrEqual(
    phone.height,
  );
  await checkPage(page, "room-live-session");

  // The directory's card: members, last activity, live now.
  await page.goto(`/?q=${encodeURIComponent(room.name)}`);
  const card = page.locator("article", { has: page.getByRole("link", { name: room.name }) });
  await expect(card).toContainText("2 members");
  await expect(card.getByTestId("room-activity")).toContainText(/active (just now|\d+ min ago)/);
  await expect(card.getByTestId("live-now")).toHaveText("Live now");
  expect(errors).toEqual([]);
});

test("join where you are: on a post's page a non-member joins in place, the player keeps playing and the comment box opens", async ({
  browser,
}) => {
  test.slow();
  const { room, newest } = await roomWithPosts("join-in-place");
  const guest = await createConfirmedUser("join-in-place-guest");
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, guest.email, guest.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${newest}`);
  await expect(page.getByRole("form", { name: "Add a comment" })).toHaveCount(0);

  // Playing (muted, so the browser allows it without a gesture); the element is marked to see it is kept.
  const audio = page.locator("main audio");
  await audio.evaluate(async (element: HTMLMediaElement) => {
    element.muted = true;
    element.dataset.kept = "yes";
    await element.play();
  });
  await expect.poll(() => audio.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeGreaterThan(0.2);

  await page.getByRole("button", { name: "Join to comment" }).click();
  const composer = page.getByRole("form", { name: "Add a comment" });
  await expect(composer).toBeVisible({ timeout: 10_000 });
  await expect(composer.getByLabel("Your comment")).toBeFocused();
  expect(new URL(page.url()).pathname).toBe(`/r/${room.slug}/p/${newest}`);
  // The same element, still playing, further on.
  const after = await audio.evaluate((element: HTMLMediaElement) => ({
    kept: element.dataset.kept,
    paused: element.paused,
    at: element.currentTime,
  }));
  expect(after.kept).toBe("yes");
  expect(after.paused).toBe(false);
  const { data: membership } = await service.from("memberships").select("role").eq("room_id", room.id).eq("user_id", guest.id).single();
  expect(membership).toEqual({ role: "member" });
  await checkPage(page, "post-joined-in-place");
  expect(errors).toEqual([]);
  await context.close();
});

test("join where you are, gated: the join-room check refuses a guest without the token, in place", async ({ browser }) => {
  const owner = await createConfirmedUser("gated-in-place-owner");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "gated-in-place", true);
  const { data: post, error } = await service
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "For holders", media_kind: "embed", media_url: "https://vimeo.com/76979871" })
    .select("id")
    .single();
  expect(error).toBeNull();
  const guest = await createConfirmedUser("gated-in-place-guest");
  const context = await browser.newContext();
  const page = await context.newPage();
  // The join-room function answers a refusal with 403; Chromium logs that response as an error.
  const errors = await watchConsole(page, {
    expectedFailures: [/\/functions\/v1\/join-room/, /the server responded with a status of 403/],
  });
  await signInWithPassword(page, guest.email, guest.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${post!.id}`);
  await expect(page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  await page.getByRole("button", { name: "Join this room" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText(/wallet/i);
  await expect(page.getByRole("link", { name: "Link a wallet on your account page" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/r/${room.slug}/p/${post!.id}`);
  await checkPage(page, "post-gated-join-refused");
  expect(errors).toEqual([]);
  await context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("a non-member joins from a post's page and stays on it, with the comment box", async ({ page }) => {
    const { room, newest } = await roomWithPosts("join-in-place-nojs");
    const guest = await createConfirmedUser("join-nojs-guest");
    await page.goto(`/login?next=${encodeURIComponent(`/r/${room.slug}/p/${newest}`)}`);
    const form = page.getByRole("form", { name: "Sign in with your password" });
    await form.getByLabel("Email", { exact: true }).fill(guest.email);
    await form.getByLabel("Password", { exact: true }).fill(guest.password);
    await form.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/r/${room.slug}/p/${newest}$`));
    await page.getByRole("button", { name: "Join to comment" }).click();
    await expect(page.getByRole("form", { name: "Add a comment" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/r/${room.slug}/p/${newest}`);
  });
});

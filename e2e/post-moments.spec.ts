import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Comments at a moment of a post, as one member: the list in media order with markers on the seek
// bar, "Comment at" the playing time, a marker seeks the player and brings its comment into view,
// reactions on and off, edit and delete, bad input kept with its message, markers from the keyboard,
// the list following playback until the person scrolls it. A visitor reads and is invited to join.

const seconds = 40;

/** A room with a 40 s uploaded tone, and a friend's comments on it (two close together share a marker). */
async function postWithComments() {
  const member = await createConfirmedUser("commenter");
  const friend = await createConfirmedUser("friend");
  const memberClient = await signedInClient(member.email, member.password);
  const room = await createRoomAs(memberClient, "moments-room");
  const path = `${room.id}/${member.id}/${randomUUID()}.wav`;
  const stored = await memberClient.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
  if (stored.error) throw stored.error;
  const { data: post, error } = await memberClient
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: member.id,
      title: "Forty seconds of tone",
      media_kind: "upload",
      storage_path: path,
      duration_seconds: seconds,
    })
    .select("id")
    .single();
  if (error || !post) throw error;
  await service.from("memberships").insert({ room_id: room.id, user_id: friend.id, verified_at: new Date().toISOString() });
  const friendClient = await signedInClient(friend.email, friend.password);
  const times = [2, 6, 10, 14, 20, 24, 30, 30.5, 34, 38];
  for (const at of times) {
    const { error: momentError } = await friendClient
      .from("moments")
      .insert({ post_id: post.id, author_id: friend.id, at_seconds: at, body: `Friend at ${at} s` } as never);
    if (momentError) throw momentError;
  }
  await friendClient
    .from("moments")
    .insert({ post_id: post.id, author_id: friend.id, at_seconds: null, body: "Lovely tone overall" } as never);
  return {
    member,
    friend: { ...friend, name: (await profileOf(friend.id)).display_name },
    room,
    postId: post.id as string,
    name: (await profileOf(member.id)).display_name,
  };
}

const momentsIn = async (postId: string) =>
  (await service.from("moments").select("id, at_seconds, body, author_id").eq("post_id", postId).order("created_at")).data ?? [];
const reactionsOn = async (momentId: string) =>
  (await service.from("reactions").select("emoji, user_id").eq("moment_id", momentId)).data ?? [];

const media = (page: Page) => page.locator("main audio");
const currentTime = (page: Page) => media(page).evaluate((element: HTMLMediaElement) => element.currentTime);
const list = (page: Page) => page.getByRole("list", { name: "Comments", exact: true });
const markers = (page: Page) => page.getByRole("group", { name: "Comments on the timeline" });
const item = (page: Page, text: string) => list(page).getByRole("listitem").filter({ hasText: text });

/** The element is inside the list's scrolled area (auto-scroll brought it into view). */
async function expectInListView(entry: Locator) {
  await expect
    .poll(() =>
      entry.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const frame = element.closest("ol")!.parentElement!.getBoundingClientRect();
        return box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
      }),
    )
    .toBe(true);
}

test("a member comments at the playing time, seeks from markers, reacts, edits and deletes; bad input stays typed", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await watchConsole(page);
  const { member, friend, room, postId, name } = await postWithComments();
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${postId}`);

  // Server-rendered in media order, the general comment last; markers once the player is there.
  await expect(list(page).getByRole("listitem")).toHaveCount(11);
  await expect(list(page).getByRole("listitem").first()).toContainText("Friend at 2 s");
  await expect(list(page).getByRole("listitem").last()).toContainText("Lovely tone overall");
  await expect(markers(page).getByRole("button", { name: "2 comments at 0:30" })).toBeVisible();
  await expect(markers(page).getByRole("button", { name: `Comment at 0:20 by ${friend.name}` })).toBeVisible();

  // Play, then "Comment at" the time playback is at.
  await expect(media(page)).toBeAttached();
  await media(page).evaluate(async (element: HTMLMediaElement) => {
    element.muted = true;
    await element.play();
  });
  await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeGreaterThan(0);
  await media(page).evaluate((element: HTMLMediaElement) => {
    element.pause();
    element.currentTime = 12.4;
  });
  const composer = page.getByRole("form", { name: "Add a comment" });
  await expect(composer.getByRole("button", { name: "Comment at 0:12" })).toBeVisible();
  await composer.getByLabel("Your comment").fill("That swell at twelve!");
  await composer.getByRole("button", { name: "Comment at 0:12" }).click();
  await expect(composer.getByRole("status")).toHaveText("Posted.");
  await expect(composer.getByLabel("Your comment")).toHaveValue("");
  const mine = item(page, "That swell at twelve!");
  await expect(mine).toHaveCount(1);
  await expect(mine.getByRole("button", { name: "0:12" })).toBeVisible();
  await expect(markers(page).getByRole("button", { name: `Comment at 0:12 by ${name}` })).toBeVisible();
  const stored = (await momentsIn(postId)).find((moment) => moment.body === "That swell at twelve!");
  expect(Number(stored?.at_seconds)).toBeCloseTo(12.4, 1);
  // The insert also came back on the room's channel: still shown once.
  await page.waitForTimeout(1000);
  await expect(item(page, "That swell at twelve!")).toHaveCount(1);

  // A marker seeks the player there, and its comment is highlighted and brought into view.
  await markers(page)
    .getByRole("button", { name: `Comment at 0:38 by ${friend.name}` })
    .click();
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(38);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());
  const at38 = item(page, "Friend at 38 s");
  await expect(at38).toHaveAttribute("aria-current", "true");
  await expectInListView(at38);
  // A cluster opens the comments it holds.
  const cluster = markers(page).getByRole("button", { name: "2 comments at 0:30" });
  await cluster.click();
  await expect(cluster).toHaveAttribute("aria-expanded", "true");
  const opened = page.getByRole("list", { name: "2 comments at 0:30" });
  await expect(opened.getByRole("button")).toHaveCount(2);
  await opened.getByRole("button", { name: /0:30 .*Friend at 30.5 s/ }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(30.5);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());
  await expect(item(page, "Friend at 30.5 s")).toHaveAttribute("aria-current", "true");
  // The time on a comment seeks too.
  await item(page, "Friend at 6 s").getByRole("button", { name: "0:06" }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(6);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());
  await expect(item(page, "Friend at 6 s")).toHaveAttribute("aria-current", "true");
  await checkPage(page, "post-moments");

  // React, and take it back; the database holds exactly what the buttons say.
  const friendsMoment = (await momentsIn(postId)).find((moment) => moment.body === "Friend at 20 s")!;
  const fire = item(page, "Friend at 20 s").getByRole("group", { name: "Reactions" }).getByRole("button", { name: /^🔥/ });
  await fire.click();
  await expect(fire).toHaveAttribute("aria-pressed", "true");
  await expect(fire).toHaveText("🔥1");
  await expect.poll(() => reactionsOn(friendsMoment.id)).toEqual([{ emoji: "🔥", user_id: member.id }]);
  await fire.click();
  await expect(fire).toHaveAttribute("aria-pressed", "false");
  await expect(fire).toHaveText("🔥");
  await expect.poll(() => reactionsOn(friendsMoment.id)).toEqual([]);

  // Bad input: the message next to the field, the text kept, nothing written.
  const before = (await momentsIn(postId)).length;
  await composer.getByRole("button", { name: /^Comment at/ }).click();
  await expect(page.locator("#moment-body-error")).toHaveText("Write a comment");
  const tooLong = "x".repeat(1001);
  await composer.getByLabel("Your comment").fill(tooLong);
  await composer.getByRole("button", { name: /^Comment at/ }).click();
  await expect(page.locator("#moment-body-error")).toHaveText("Comments are up to 1000 characters");
  await expect(composer.getByLabel("Your comment")).toHaveValue(tooLong);
  await composer.getByLabel("Your comment").fill("At a time that isn't there");
  await composer.getByRole("textbox", { name: "Time" }).fill("-0:05");
  await composer.getByRole("button", { name: "Comment at -0:05" }).click();
  await expect(page.locator("#moment-at-error")).toHaveText("A moment can't be before the start");
  await composer.getByRole("textbox", { name: "Time" }).fill("5:00");
  await composer.getByRole("button", { name: "Comment at 5:00" }).click();
  await expect(page.locator("#moment-at-error")).toHaveText("That time is past the end of the media");
  await expect(composer.getByLabel("Your comment")).toHaveValue("At a time that isn't there");
  expect((await momentsIn(postId)).length).toBe(before);
  await checkPage(page, "post-moments-errors");

  // A general comment, at no time: last in the list, no marker.
  await composer.getByLabel("General comment (not at a time)").check();
  await composer.getByLabel("Your comment").fill("The whole thing hums.");
  await composer.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(composer.getByRole("status")).toHaveText("Posted.");
  await expect(item(page, "The whole thing hums.")).toContainText("General");
  // General comments come after every timed one (in id order among themselves).
  const lastTwo = (await list(page).getByRole("listitem").allTextContents()).slice(-2).join(" ");
  expect(lastTwo).toContain("The whole thing hums.");
  expect(lastTwo).toContain("Lovely tone overall");
  expect((await momentsIn(postId)).find((moment) => moment.body === "The whole thing hums.")?.at_seconds).toBeNull();

  // Edit own: an empty edit is refused and kept; then saved. Only own comments offer Edit.
  await expect(item(page, "Friend at 20 s").getByRole("button", { name: "Edit" })).toHaveCount(0);
  // Held by id: while the text is being edited it is not the item's text.
  const mineById = list(page).locator(`[data-moment-id="${stored!.id}"]`);
  await mineById.getByRole("button", { name: "Edit" }).click();
  const edit = mineById.getByRole("form", { name: "Edit comment" });
  await edit.getByLabel("Edit your comment").fill("   ");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toHaveText("Write a comment");
  await expect(edit.getByLabel("Edit your comment")).toHaveValue("   ");
  await edit.getByLabel("Edit your comment").fill("That swell at twelve, edited");
  await edit.getByRole("button", { name: "Save" }).click();
  const edited = item(page, "That swell at twelve, edited");
  await expect(edited).toContainText("edited");
  await expect.poll(async () => (await momentsIn(postId)).some((moment) => moment.body === "That swell at twelve, edited")).toBe(true);

  // Delete own: gone from the list, the timeline and the database.
  await edited.getByRole("button", { name: "Delete" }).click();
  await edited.getByRole("button", { name: "Yes, delete" }).click();
  await expect(item(page, "That swell at twelve")).toHaveCount(0);
  await expect(markers(page).getByRole("button", { name: `Comment at 0:12 by ${name}` })).toHaveCount(0);
  await expect.poll(async () => (await momentsIn(postId)).some((moment) => moment.body.startsWith("That swell"))).toBe(false);
  expect(errors).toEqual([]);
});

test("markers from the keyboard: Tab reaches them, arrows move between them, Enter and Space seek; the list follows playback until scrolled", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const { member, friend, room, postId } = await postWithComments();
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(media(page)).toBeAttached();
  await expect(markers(page).getByRole("button").first()).toBeVisible();

  await page.getByRole("link", { name: `← ${room.name}` }).focus();
  let reached = "";
  for (let presses = 0; presses < 20 && !reached.startsWith("Comment at"); presses++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
  }
  expect(reached).toBe(`Comment at 0:02 by ${friend.name}`);
  await page.keyboard.press("ArrowRight");
  await expect(markers(page).getByRole("button", { name: `Comment at 0:06 by ${friend.name}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(6);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());
  await expect(item(page, "Friend at 6 s")).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("End");
  await expect(markers(page).getByRole("button", { name: `Comment at 0:38 by ${friend.name}` })).toBeFocused();
  await page.keyboard.press("Space");
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(38);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());
  await expectInListView(item(page, "Friend at 38 s"));

  // Scrolling the list stops it following playback; "Follow playback" brings the current one back.
  const scroller = list(page).locator("xpath=..");
  await scroller.hover();
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(0);
  await expect(page.getByRole("button", { name: "Follow playback" })).toBeVisible();
  await media(page).evaluate((element: HTMLMediaElement) => (element.currentTime = 34.2));
  await expect(item(page, "Friend at 34 s")).toHaveAttribute("aria-current", "true");
  expect(await scroller.evaluate((element) => element.scrollTop)).toBe(0);
  await page.getByRole("button", { name: "Follow playback" }).click();
  await expect(page.getByRole("button", { name: "Follow playback" })).toHaveCount(0);
  await expectInListView(item(page, "Friend at 34 s"));
  expect(errors).toEqual([]);
});

test("a visitor reads the comments, live as they change, and is invited to join instead of a comment form", async ({ page }) => {
  const errors = await watchConsole(page);
  const { room, postId, friend } = await postWithComments();
  const joined = new Promise<void>((resolve) => {
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        const text = String(payload);
        if (text.includes("phx_reply") && text.includes(`room:${room.id}`) && text.includes('"status":"ok"')) resolve();
      }),
    );
  });
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(list(page).getByRole("listitem")).toHaveCount(11);
  await expect(page.getByRole("form", { name: "Add a comment" })).toHaveCount(0);
  await expect(page.getByText("Join to comment")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in to join" })).toHaveAttribute(
    "href",
    `/login?next=${encodeURIComponent(`/r/${room.slug}/p/${postId}`)}`,
  );
  await expect(item(page, "Friend at 20 s").getByRole("group", { name: "Reactions" })).toHaveCount(0);
  await checkPage(page, "post-moments-visitor");

  // The room's channel brings a friend's new comment, their reaction and the comment's deletion.
  await joined;
  const friendClient = await signedInClient(friend.email, friend.password);
  const { data: added } = await friendClient
    .from("moments")
    .insert({ post_id: postId, author_id: friend.id, at_seconds: 16, body: "Live at sixteen" } as never)
    .select("id")
    .single();
  await expect(item(page, "Live at sixteen")).toHaveCount(1);
  await expect(list(page).getByRole("listitem").nth(4)).toContainText("Live at sixteen");
  await expect(markers(page).getByRole("button", { name: `Comment at 0:16 by ${friend.name}` })).toBeVisible();
  await friendClient.from("reactions").insert({ moment_id: (added as { id: string }).id, user_id: friend.id, emoji: "👏" } as never);
  await expect(item(page, "Live at sixteen").getByLabel("Reactions")).toHaveText("👏 1");
  await friendClient
    .from("moments")
    .delete()
    .eq("id", (added as { id: string }).id);
  await expect(item(page, "Live at sixteen")).toHaveCount(0);
  await expect(list(page).getByRole("listitem")).toHaveCount(11);
  expect(errors).toEqual([]);
});

import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// Links at a time: `?t=1m42s` starts playback there; `?t=3&end=5` plays a clip and stops at its end
// (and lets the person play on); "Share" under the player copies a link at the current time (with an
// optional end), and "Share" on a comment or a reply copies its /m/<id> link, which opens the post
// with that comment highlighted. The embed page honours the clip too.

async function aPostWithAThread() {
  const a = await createConfirmedUser("share-a");
  const client = await signedInClient(a.email, a.password);
  const room = await createRoomAs(client, "share-room");
  const postId = await uploadTone(client, room.id, a.id, "Three minutes of tone", 180);
  const insert = async (row: Record<string, unknown>) => {
    const { data, error } = await client
      .from("moments")
      .insert({ post_id: postId, author_id: a.id, ...row } as never)
      .select("id")
      .single<{ id: string }>();
    if (error || !data) throw error;
    return data.id;
  };
  const commentId = await insert({ at_seconds: 102, body: "The turn at 1:42" });
  const replyId = await insert({ parent_id: commentId, body: "Agreed, that turn" });
  return { a, room, postId, commentId, replyId };
}

async function clipboardContext(context: BrowserContext) {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
}
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const media = (page: Page) => page.locator("main audio");
const time = (audio: Locator) => () => audio.evaluate((element: HTMLMediaElement) => element.currentTime);
const paused = (audio: Locator) => () => audio.evaluate((element: HTMLMediaElement) => element.paused);
const play = (audio: Locator) =>
  audio.evaluate(async (element: HTMLMediaElement) => {
    element.muted = true;
    await element.play();
  });

test("?t= starts playback at its time; a clip stops at its end; Share copies the link at the current time", async ({ page, context }) => {
  test.setTimeout(180_000);
  await clipboardContext(context);
  const { a, room, postId } = await aPostWithAThread();
  const errors = await watchConsole(page);
  await signInWithPassword(page, a.email, a.password);
  await page.waitForURL("/");
  const postPath = `/r/${room.slug}/p/${postId}`;

  // ?t=1m42s: pressing play starts at 1:42.
  await page.goto(`${postPath}?t=1m42s`);
  const audio = media(page);
  await expect(audio).toBeAttached({ timeout: 20_000 });
  await expect.poll(time(audio), { timeout: 10_000 }).toBeGreaterThanOrEqual(102);
  await play(audio);
  await expect.poll(time(audio), { timeout: 5_000 }).toBeGreaterThan(102.3);
  expect(await time(audio)()).toBeLessThan(106);
  await audio.evaluate((element: HTMLMediaElement) => element.pause());
  // No end: no clip.
  await expect(page.getByText(/^Clip /)).toHaveCount(0);

  // Share under the player: a dialog with the current time as the start, the link, Copy link.
  const shareButton = page.getByRole("button", { name: "Share this post" });
  await shareButton.click();
  await expect(shareButton).toHaveAttribute("aria-expanded", "true");
  const dialog = page.getByRole("dialog", { name: "Share this post" });
  const startBox = dialog.getByRole("checkbox", { name: "Start at" });
  await expect(startBox).toBeChecked();
  await expect(startBox).toBeFocused();
  const start = dialog.getByRole("textbox", { name: "Start time" });
  await expect(start).toHaveValue(/^1:4[2-5]$/);
  const startSeconds = 60 + Number((await start.inputValue()).split(":")[1]);
  const expected = `${postPath}?t=1m${startSeconds - 60}s`;
  const link = dialog.getByRole("textbox", { name: "Link" });
  await expect(link).toHaveValue(new RegExp(`^https?://[^/]+${escape(expected)}$`));
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Link copied");
  expect(new URL(await clipboard(page)).pathname + new URL(await clipboard(page)).search).toBe(expected);
  await checkPage(page, "share-post-dialog");

  // An optional end makes a clip link; an end before the start is refused in words, and left out.
  const end = dialog.getByRole("textbox", { name: "End at" });
  await end.fill("2:10");
  await expect(link).toHaveValue(new RegExp(`${escape(expected)}&end=2m10s$`));
  await end.fill("1:00");
  await expect(dialog.getByText("The end must come after the start.")).toBeVisible();
  await expect(end).toHaveAttribute("aria-invalid", "true");
  await expect(link).toHaveValue(new RegExp(`${escape(expected)}$`));
  await end.fill("9:00");
  await expect(dialog.getByText("The end must be within the track (3:00).")).toBeVisible();
  // Without the start: from the beginning.
  await end.fill("");
  await startBox.uncheck();
  await expect(link).toHaveValue(new RegExp(`${escape(postPath)}$`));
  // Escape closes it and gives the focus back to Share.
  await link.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(shareButton).toBeFocused();
  await expect(shareButton).toHaveAttribute("aria-expanded", "false");

  // A clip: ?t=3&end=5 plays from 0:03 and stops at 0:05.
  await page.goto(`${postPath}?t=3&end=5`);
  const clipNote = page.getByText("Clip 0:03–0:05");
  await expect(clipNote).toBeVisible();
  await expect(audio).toBeAttached({ timeout: 20_000 });
  await expect.poll(time(audio), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await play(audio);
  await expect.poll(paused(audio), { timeout: 8_000 }).toBe(true);
  const stoppedAt = await time(audio)();
  expect(stoppedAt).toBeGreaterThanOrEqual(4.7);
  expect(stoppedAt).toBeLessThanOrEqual(5.5);
  await page.waitForTimeout(400);
  expect(await paused(audio)()).toBe(true);
  await checkPage(page, "share-clip-stopped");
  // Play again from there: the person goes on past the end, and the clip is over.
  await play(audio);
  await expect.poll(time(audio), { timeout: 5_000 }).toBeGreaterThan(5.8);
  expect(await paused(audio)()).toBe(false);
  await expect(clipNote).toBeHidden();
  await audio.evaluate((element: HTMLMediaElement) => element.pause());

  // "Play whole track" clears the clip before it stops.
  await page.goto(`${postPath}?t=3&end=5`);
  await expect(clipNote).toBeVisible();
  await page.getByRole("button", { name: "Play whole track" }).click();
  await expect(clipNote).toBeHidden();
  await expect(audio).toBeAttached({ timeout: 20_000 });
  await expect.poll(time(audio), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await play(audio);
  await expect.poll(time(audio), { timeout: 6_000 }).toBeGreaterThan(5.6);
  expect(await paused(audio)()).toBe(false);
  await audio.evaluate((element: HTMLMediaElement) => element.pause());

  // Ranges that make no sense are ignored: the start still applies.
  for (const bad of ["t=5&end=3", "t=5&end=5", "t=5&end=10m", "t=5&end=soon"]) {
    await page.goto(`${postPath}?${bad}`);
    await expect(page.getByRole("button", { name: "Share this post" })).toBeVisible();
    await expect(page.getByText(/^Clip /), bad).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test("Share on a comment and on a reply copies its /m/ link, which opens the post with it highlighted", async ({ page, context }) => {
  test.setTimeout(120_000);
  await clipboardContext(context);
  const { a, room, postId, commentId, replyId } = await aPostWithAThread();
  await signInWithPassword(page, a.email, a.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${postId}`);
  const list = page.getByRole("list", { name: "Comments", exact: true });
  const comment = list.locator(`[data-moment-id="${commentId}"]`);
  const reply = list.locator(`[data-moment-id="${replyId}"]`);
  await expect(comment).toBeVisible();

  const commentShare = comment.getByRole("button", { name: "Share this comment" });
  await commentShare.click();
  const dialog = page.getByRole("dialog", { name: "Share this comment" });
  await expect(dialog.getByRole("textbox", { name: "Link" })).toBeFocused();
  await expect(dialog.getByRole("textbox", { name: "Link" })).toHaveValue(new RegExp(`/m/${commentId}$`));
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Link copied");
  expect(new URL(await clipboard(page)).pathname).toBe(`/m/${commentId}`);
  await checkPage(page, "share-comment-dialog");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(commentShare).toBeFocused();

  await reply.getByRole("button", { name: "Share this reply" }).click();
  const replyDialog = reply.getByRole("dialog", { name: "Share this comment" });
  await replyDialog.getByRole("button", { name: "Copy link" }).click();
  await expect(replyDialog.getByRole("status")).toHaveText("Link copied");
  expect(new URL(await clipboard(page)).pathname).toBe(`/m/${replyId}`);

  // The comment's link opens the post at the comment's time, the comment highlighted.
  await page.goto(`/m/${commentId}`);
  await page.waitForURL(new RegExp(`/r/${room.slug}/p/${postId}\\?t=102&comment=${commentId}`));
  await expect(comment).toBeFocused();
  await expect(comment).toHaveClass(/ring-2/);
});

test("the embed page plays a clip and stops at its end", async ({ page }) => {
  test.setTimeout(90_000);
  const { postId } = await aPostWithAThread();
  await page.goto(`/embed/p/${postId}?t=3&end=5`);
  await expect(page.getByText("Clip 0:03–0:05")).toBeVisible();
  const audio = media(page);
  await expect(audio).toBeAttached({ timeout: 20_000 });
  await expect.poll(time(audio), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await play(audio);
  await expect.poll(paused(audio), { timeout: 8_000 }).toBe(true);
  const stoppedAt = await time(audio)();
  expect(stoppedAt).toBeGreaterThanOrEqual(4.7);
  expect(stoppedAt).toBeLessThanOrEqual(5.5);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

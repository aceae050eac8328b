import { expect, type Page, test } from "@playwright/test";
import { alertInMain, checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Conversations on a post, with two people on it at once: B replies to A's comment (typing an
// @name from the keyboard-first autocomplete) and the reply reaches A's open page live, under the
// comment, its @name a link to A; the reply form closes with Escape and gives focus back; A deletes
// the comment and "Comment deleted" stands over B's reply on both pages; a link with `?t=` and
// `?comment=` starts playback there and brings the comment into view, focused and highlighted.

async function twoPeopleOnAPost() {
  const a = await createConfirmedUser("thread-a");
  const b = await createConfirmedUser("thread-b");
  const aClient = await signedInClient(a.email, a.password);
  const room = await createRoomAs(aClient, "threads-room");
  const postId = await uploadTone(aClient, room.id, a.id, "Two minutes of tone", 120);
  await service.from("memberships").insert({ room_id: room.id, user_id: b.id, verified_at: new Date().toISOString() });
  const { data: comment, error } = await aClient
    .from("moments")
    .insert({ post_id: postId, author_id: a.id, at_seconds: 102, body: "Listen to the turn at 1:42" } as never)
    .select("id")
    .single<{ id: string }>();
  if (error || !comment) throw error;
  const [aProfile, bProfile] = await Promise.all([profileOf(a.id), profileOf(b.id)]);
  return { a: { ...a, profile: aProfile }, b: { ...b, profile: bProfile }, room, postId, commentId: comment.id };
}

const hereNow = (page: Page) => page.getByRole("region", { name: "Here now" });
const expectLive = (page: Page) => expect(hereNow(page).getByRole("status")).toHaveText("Live", { timeout: 20_000 });
const list = (page: Page) => page.getByRole("list", { name: "Comments", exact: true });
const thread = (page: Page, text: string) => list(page).locator(":scope > li").filter({ hasText: text });

test("B replies to A's comment with an @mention; A sees it live; A deletes the comment and the reply stays", async ({ browser }) => {
  test.setTimeout(180_000);
  const { a, b, room, postId, commentId } = await twoPeopleOnAPost();
  const aPage = await (await browser.newContext()).newPage();
  const bPage = await (await browser.newContext()).newPage();
  const aErrors = await watchConsole(aPage);
  const bErrors = await watchConsole(bPage);
  await signInWithPassword(aPage, a.email, a.password);
  await signInWithPassword(bPage, b.email, b.password);
  await aPage.waitForURL("/");
  await bPage.waitForURL("/");
  const postPath = `/r/${room.slug}/p/${postId}`;
  await aPage.goto(postPath);
  await bPage.goto(postPath);
  // Both pages have joined the room's channel.
  await Promise.all([expectLive(aPage), expectLive(bPage)]);

  // B opens the reply form under A's comment; Escape closes it and focus returns to "Reply".
  const bThread = thread(bPage, "Listen to the turn at 1:42");
  const replyButton = bThread.getByRole("button", { name: "Reply", exact: true });
  await replyButton.click();
  const field = bThread.getByRole("textbox", { name: `Reply to ${a.profile.display_name}` });
  await expect(field).toBeFocused();
  await field.pressSequentially("so good ");
  await field.press("Escape");
  await expect(field).toBeHidden();
  await expect(replyButton).toBeFocused();
  await expect(replyButton).toHaveAttribute("aria-expanded", "false");
  // Reopened, what was typed is still there.
  await replyButton.press("Enter");
  await expect(field).toHaveValue("so good ");

  // The @ list from the keyboard: it opens with A among the room's members, arrows move, Enter picks.
  await field.press("End");
  await field.pressSequentially(`@${a.profile.username.slice(0, 4)}`);
  const options = bPage.getByRole("listbox", { name: "People in this room" });
  await expect(options).toBeVisible();
  const option = options.getByRole("option", { name: new RegExp(`@${a.profile.username}`) });
  await expect(option).toBeVisible();
  await expect(options.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await expect(field).toHaveAttribute("aria-activedescendant", /.+/);
  await checkPage(bPage, "thread-mention-autocomplete");
  // The page check moves focus about: back in the field, the list is there again, as people see it.
  await field.focus();
  await field.press("End");
  await expect(option).toBeVisible();
  await bPage.setViewportSize({ width: 390, height: 900 });
  await bThread.scrollIntoViewIfNeeded();
  await bPage.screenshot({ path: "e2e/screenshots/thread-mention-list-390.png" });
  await bPage.setViewportSize({ width: 1280, height: 900 });
  // Escape closes the list, not the form, and keeps the text; typing another @ opens it again.
  await field.press("Escape");
  await expect(options).toBeHidden();
  await expect(field).toBeVisible();
  await expect(field).toHaveValue(`so good @${a.profile.username.slice(0, 4)}`);
  // Cleared and typed again, the @ opens the list again.
  await field.press("Control+A");
  await field.press("Delete");
  await field.pressSequentially(`so good @${a.profile.username.slice(0, 4)}`);
  await expect(option).toBeVisible();
  const index = await options
    .getByRole("option")
    .evaluateAll((nodes, name) => nodes.findIndex((node) => node.textContent?.includes(`@${name}`)), a.profile.username);
  expect(index).toBeGreaterThanOrEqual(0);
  for (let step = 0; step < index; step++) await field.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await field.press("Enter");
  await expect(field).toHaveValue(`so good @${a.profile.username} `);
  await expect(options).toBeHidden();
  await field.pressSequentially("thanks!");
  await bThread.getByRole("button", { name: "Post reply" }).click();

  // B's page shows the reply under the comment; A's page gets it live, under the comment, not as a comment.
  for (const page of [bPage, aPage]) {
    const replies = thread(page, "Listen to the turn at 1:42").getByRole("list", { name: /^Replies to / });
    await expect(replies.getByRole("listitem")).toHaveCount(1, { timeout: 15_000 });
    await expect(replies).toContainText(`so good @${a.profile.username} thanks!`);
    const link = replies.getByRole("link", { name: `@${a.profile.username}` });
    await expect(link).toHaveAttribute("href", `/u/${a.profile.username}`);
    await expect(list(page).locator(":scope > li")).toHaveCount(1);
  }
  // Only the comment is a marker on the seek bar.
  await expect(aPage.getByRole("group", { name: "Comments on the timeline" }).getByRole("button")).toHaveCount(1);
  const { data: rows } = await service.from("moments").select("id, parent_id, at_seconds").eq("post_id", postId);
  const reply = rows?.find((row) => row.parent_id === commentId);
  expect(Number(reply?.at_seconds)).toBe(102);
  const { data: mentions } = await service.from("mentions").select("user_id").eq("moment_id", reply!.id);
  expect(mentions).toEqual([{ user_id: a.id }]);
  await checkPage(aPage, "thread-reply");

  // A deletes the comment: "Comment deleted" stands over B's reply, on both pages.
  const aThread = thread(aPage, "Listen to the turn at 1:42");
  await aThread.getByRole("button", { name: "Delete" }).first().click();
  await aThread.getByRole("button", { name: "Yes, delete" }).click();
  for (const page of [aPage, bPage]) {
    const placeholder = list(page).locator(":scope > li").first();
    await expect(placeholder.getByText("Comment deleted")).toBeVisible({ timeout: 15_000 });
    await expect(placeholder).not.toContainText("Listen to the turn");
    await expect(placeholder.getByRole("list", { name: /^Replies to / })).toContainText("thanks!");
    await expect(placeholder.getByRole("group", { name: "Reactions" })).toHaveCount(1); // the reply's, not the comment's
  }
  await expect(alertInMain(aPage)).toHaveCount(0);
  await checkPage(bPage, "thread-deleted-comment");

  // B deletes the last reply: the emptied comment goes with it, on A's page too.
  const bReply = list(bPage).getByRole("listitem", { name: /^Reply by / });
  await bReply.getByRole("button", { name: "Delete" }).click();
  await bReply.getByRole("button", { name: "Yes, delete" }).click();
  await expect(list(aPage)).toHaveCount(0, { timeout: 15_000 });
  await expect(aPage.getByText("No comments yet")).toBeVisible();
  expect(aErrors).toEqual([]);
  expect(bErrors).toEqual([]);
});

test("a link with ?t= and ?comment= starts there and brings the comment (or a reply in a collapsed thread) into view", async ({ page }) => {
  test.setTimeout(120_000);
  const { a, b, room, postId, commentId } = await twoPeopleOnAPost();
  const bClient = await signedInClient(b.email, b.password);
  const replyIds: string[] = [];
  for (let n = 1; n <= 5; n++) {
    const { data } = await bClient
      .from("moments")
      .insert({ post_id: postId, author_id: b.id, body: `Reply number ${n}`, parent_id: commentId } as never)
      .select("id")
      .single<{ id: string }>();
    replyIds.push(data!.id);
  }
  await signInWithPassword(page, a.email, a.password);
  await page.waitForURL("/");

  await page.goto(`/r/${room.slug}/p/${postId}?t=102&comment=${commentId}`);
  const comment = list(page).locator(`[data-moment-id="${commentId}"]`);
  await expect(comment).toBeFocused();
  await expect(comment).toHaveClass(/ring-2/);
  await expect(comment).toBeInViewport();
  // Collapsed after three: the rest counted.
  await expect(comment.getByRole("button", { name: "Show 2 more replies" })).toBeVisible();
  await expect(comment.getByRole("list", { name: /^Replies to / }).getByRole("listitem")).toHaveCount(3);
  // Playback starts at 1:42 (the composer offers that time).
  await expect(page.getByRole("form", { name: "Add a comment" }).getByRole("button", { name: "Comment at 1:42" })).toBeVisible();
  // The highlight passes.
  await expect(comment).not.toHaveClass(/ring-2/, { timeout: 8_000 });
  await checkPage(page, "thread-linked-comment");

  // A link to the last reply opens its thread and focuses the reply.
  await page.goto(`/r/${room.slug}/p/${postId}?t=1m42s&comment=${replyIds[4]}`);
  const last = list(page).locator(`[data-moment-id="${replyIds[4]}"]`);
  await expect(last).toBeFocused();
  await expect(last).toContainText("Reply number 5");
  await expect(list(page).getByRole("button", { name: /more repl/ })).toHaveCount(0);

  // Bad values are ignored: the page starts at the beginning and nothing is focused.
  await page.goto(`/r/${room.slug}/p/${postId}?t=soon&comment=not-an-id`);
  await expect(page.getByRole("form", { name: "Add a comment" }).getByRole("button", { name: "Comment at 0:00" })).toBeVisible();
  await expect(list(page).locator(":scope > li")).toHaveCount(1);
});

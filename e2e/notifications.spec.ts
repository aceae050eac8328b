import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Notifications as two people live them: Bea replies to Ada's comment and reacts to it (through
// supabase-js, as her own page would); Ada's open page's bell counts up without a reload; the list
// on /notifications says who did what, opening the reply lands on the post at the comment, and
// "Mark all read" empties the bell. A comment in a room someone cannot read leads them, through
// /m/, to the same members-only page any non-member of that room gets (a link naming the notification,
// `/m/<id>?n=<notification id>`, marks it read). Every room kind reads as words; older pages add below.

const bell = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Notifications/ });
const list = (page: Page) => page.getByRole("list", { name: "Notifications", exact: true });

async function conversation() {
  const ada = await createConfirmedUser("notified-ada");
  const bea = await createConfirmedUser("notified-bea");
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "notified-room");
  const postId = await uploadTone(adaClient, room.id, ada.id, "Tone for two", 30);
  await service.from("memberships").insert({ room_id: room.id, user_id: bea.id, verified_at: new Date().toISOString() });
  const { data: comment, error } = await adaClient
    .from("moments")
    .insert({ post_id: postId, author_id: ada.id, at_seconds: 12.6, body: "Listen to the swell here" } as never)
    .select("id")
    .single();
  if (error || !comment) throw error;
  return {
    ada,
    bea: { ...bea, client: await signedInClient(bea.email, bea.password), name: (await profileOf(bea.id)).display_name },
    room,
    postId,
    commentId: (comment as { id: string }).id,
  };
}

test("the bell counts a reply live; the list opens it on its post; mark all read empties the bell", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const { ada, bea, room, postId, commentId } = await conversation();

  // Signed out, the page asks to sign in and comes back.
  await page.goto("/notifications");
  await expect(page).toHaveURL(/\/login\?next=%2Fnotifications$/);
  await signInWithPassword(page, ada.email, ada.password, "/login?next=%2Fnotifications");
  await page.waitForURL("/notifications");
  await expect(page.getByRole("main")).toContainText("No notifications yet");
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await checkPage(page, "notifications-empty");

  // Ada reads the room's post; Bea replies to her comment and reacts to it, from her own client.
  await page.goto(`/r/${room.slug}`);
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  // The bell's channel joins after first paint: wait for its socket before Bea writes.
  await page.waitForTimeout(1500);
  const { data: reply, error } = await bea.client
    .from("moments")
    .insert({ post_id: postId, author_id: bea.id, body: "It gives me chills every time", parent_id: commentId } as never)
    .select("id")
    .single();
  expect(error).toBeNull();
  const replyId = (reply as { id: string }).id;
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread", { timeout: 5_000 });
  await expect(bell(page).getByTestId("unread-badge")).toHaveText("1");
  expect((await bea.client.from("reactions").insert({ moment_id: commentId, user_id: bea.id, emoji: "🔥" } as never)).error).toBeNull();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread", { timeout: 5_000 });

  // The list: who did what, where, and the words; both unread.
  await bell(page).click();
  await page.waitForURL("/notifications");
  const replied = list(page).getByRole("listitem").filter({ hasText: "replied to your comment" });
  const reacted = list(page).getByRole("listitem").filter({ hasText: "reacted 🔥 to your comment" });
  await expect(replied).toContainText(bea.name);
  await expect(replied).toContainText("It gives me chills every time");
  await expect(replied).toContainText("“Tone for two”");
  await expect(reacted).toContainText(bea.name);
  await expect(list(page).locator("li[data-unread]")).toHaveCount(2);
  await checkPage(page, "notifications");

  // A new one arrives at the top while the page is open.
  const { error: secondError } = await bea.client
    .from("moments")
    .insert({ post_id: postId, author_id: bea.id, body: "Also: the ending!", parent_id: commentId } as never);
  expect(secondError).toBeNull();
  await expect(list(page).getByRole("listitem").first()).toContainText("Also: the ending!", { timeout: 5_000 });
  await expect(bell(page)).toHaveAccessibleName("Notifications, 3 unread");

  // Opening the first reply marks it read and lands on the post, at the comment.
  await replied.filter({ hasText: "It gives me chills" }).getByRole("link").click();
  await page.waitForURL((url) => url.pathname === `/r/${room.slug}/p/${postId}`);
  const landed = new URL(page.url());
  expect(landed.searchParams.get("comment")).toBe(replyId);
  expect(landed.searchParams.get("t")).toBe("12");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  await expect
    .poll(async () => (await service.from("notifications").select("read_at").eq("moment_id", replyId).single()).data?.read_at ?? null)
    .not.toBeNull();

  // Mark all read: the bell empties, and stays so after a reload.
  await page.goto("/notifications");
  await expect(list(page).locator("li[data-unread]")).toHaveCount(2);
  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(list(page).locator("li[data-unread]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Mark all read" })).toHaveCount(0);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(bell(page).getByTestId("unread-badge")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a comment someone cannot read leads them to its room's members-only page; a missing one is not found", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = await watchConsole(page, { expectedFailures: [/\/m\//] });
  const owner = await createConfirmedUser("gated-owner");
  const outsider = await createConfirmedUser("gated-outsider");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "notified-gated", true);
  const postId = await uploadTone(ownerClient, room.id, owner.id, "Members' tone", 20);
  const { data: comment, error } = await ownerClient
    .from("moments")
    .insert({ post_id: postId, author_id: owner.id, at_seconds: 5, body: "Secret words" } as never)
    .select("id")
    .single();
  if (error || !comment) throw error;
  const commentId = (comment as { id: string }).id;

  // Signed out: sign in first, then on to where a non-member lands.
  await page.goto(`/m/${commentId}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fm%2F${commentId}$`));
  await signInWithPassword(page, outsider.email, outsider.password, `/login?next=${encodeURIComponent(`/m/${commentId}`)}`);
  await page.waitForURL(`/r/${room.slug}/p/${postId}`);
  await expect(page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("Secret words");

  // Its owner lands on the comment; a link naming the notification (as from outside the page) marks it read.
  const { data: told, error: toldError } = await service
    .from("notifications")
    .insert({ user_id: owner.id, kind: "mention", actor_id: outsider.id, room_id: room.id, post_id: postId, moment_id: commentId })
    .select("id")
    .single();
  expect(toldError).toBeNull();
  const notificationId = (told as { id: string }).id;
  const ownerPage = await page.context().browser()!.newPage();
  await signInWithPassword(ownerPage, owner.email, owner.password);
  await expect(bell(ownerPage)).toHaveAccessibleName("Notifications, 1 unread");
  await ownerPage.goto(`/m/${commentId}?n=${notificationId}`);
  await ownerPage.waitForURL((url) => url.pathname === `/r/${room.slug}/p/${postId}`);
  expect(new URL(ownerPage.url()).search).toBe(`?t=5&comment=${commentId}`);
  await expect(bell(ownerPage)).toHaveAccessibleName("Notifications");
  expect((await service.from("notifications").select("read_at").eq("id", notificationId).single()).data?.read_at).not.toBeNull();
  await ownerPage.close();

  await page.goto("/m/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
  expect(errors).toEqual([]);
});

test("every kind in words; 'Show older' keeps what is shown; held-back ones on their own list", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = await watchConsole(page);
  const ada = await createConfirmedUser("kinds-ada");
  const bea = await createConfirmedUser("kinds-bea");
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "kinds-room");
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  // As the database writes them (their causes are other specs' subject): the room's kinds, newest first, then older filler.
  const rows = [
    { kind: "moderation", actor_id: bea.id, data: { action: "comment_removed", reason: "Please keep it kind" } },
    { kind: "role_changed", actor_id: bea.id, data: { from: "member", to: "moderator" } },
    { kind: "membership_ended", actor_id: null, data: { why: "lapsed" } },
    { kind: "session_started", actor_id: bea.id, data: {} },
    ...Array.from({ length: 20 }, () => ({ kind: "role_changed", actor_id: bea.id, data: { from: "moderator", to: "member" } })),
  ].map((row, index) => ({ ...row, user_id: ada.id, room_id: room.id, held: false, created_at: minutesAgo(index + 1) }));
  const held = {
    kind: "session_started",
    actor_id: bea.id,
    data: {},
    user_id: ada.id,
    room_id: room.id,
    held: true,
    created_at: minutesAgo(0),
  };
  const { error } = await service.from("notifications").insert([...rows, held]);
  expect(error).toBeNull();

  await signInWithPassword(page, ada.email, ada.password, "/login?next=%2Fnotifications");
  await page.waitForURL("/notifications");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 24 unread");
  await expect(bell(page).getByTestId("unread-badge")).toHaveText("9+");
  const items = list(page).getByRole("listitem");
  await expect(items).toHaveCount(20);
  await expect(items.nth(0)).toContainText(`A moderator removed your comment in ${room.name}: Please keep it kind`);
  await expect(items.nth(1)).toContainText(`Your role in ${room.name} is now moderator`);
  await expect(items.nth(2)).toContainText(`Your membership of ${room.name} ended: your wallets no longer hold the token`);
  await expect(items.nth(3)).toContainText(`started listening together in ${room.name}`);
  await expect(items.nth(3).getByRole("link")).toHaveAttribute("href", `/r/${room.slug}/listen`);
  await checkPage(page, "notifications-kinds");

  await page.getByRole("button", { name: "Show older" }).click();
  await expect(items).toHaveCount(24);
  await expect(items.nth(0)).toContainText("A moderator removed your comment");
  await expect(page.getByRole("button", { name: "Show older" })).toHaveCount(0);

  await page.getByRole("link", { name: "Held back" }).click();
  await page.waitForURL("/notifications?show=held");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Held back");
  const heldItems = page.getByRole("list", { name: "Held-back notifications" }).getByRole("listitem");
  await expect(heldItems).toHaveCount(1);
  await expect(heldItems.first()).toContainText(`started listening together in ${room.name}`);
  await checkPage(page, "notifications-held");
  // Marking the held-back ones read leaves the bell's count as it was.
  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByRole("list", { name: "Held-back notifications" }).locator("li[data-unread]")).toHaveCount(0);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 24 unread");
  expect(errors).toEqual([]);
});

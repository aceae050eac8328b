import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// Where the room reacted: over an uploaded tone's seek bar, a strip of where its comments and
// reactions cluster and its three hottest moments as buttons that jump the player there; a burst of
// comments elsewhere, arriving live, moves the hottest moment. A link post's visitor sees the same.

const hot = (page: Page) => page.getByRole("group", { name: "Where the room reacted" }).getByRole("button");
const media = (page: Page) => page.locator("main audio");

/** Comments (and reactions on the first of each group) written as the service role: no rate limit, each still sent to the room. */
async function comment(postId: string, authorId: string, times: number[], reactors: string[] = []) {
  const { data, error } = await service
    .from("moments")
    .insert(times.map((at) => ({ post_id: postId, author_id: authorId, at_seconds: at, body: `At ${at} s` })) as never)
    .select("id");
  if (error || !data) throw error;
  const first = (data as { id: string }[])[0].id;
  const emoji = ["🔥", "❤️", "👏"];
  for (const [index, user] of reactors.entries()) {
    const { error: reactionError } = await service
      .from("reactions")
      .insert({ moment_id: first, user_id: user, emoji: emoji[index] } as never);
    if (reactionError) throw reactionError;
  }
}

test("an upload's heat strip marks its three hottest moments, jumps there and follows new comments live", async ({ page }) => {
  const errors = await watchConsole(page);
  const member = await createConfirmedUser("heat");
  const friend = await createConfirmedUser("heat-friend");
  const memberClient = await signedInClient(member.email, member.password);
  const room = await createRoomAs(memberClient, "heat-room");
  await service.from("memberships").insert({ room_id: room.id, user_id: friend.id });
  const postId = await uploadTone(memberClient, room.id, member.id, "Forty seconds of heat", 40);
  // A cluster at 0:20 (five comments, three reactions), two at 0:06, one with a reaction at 0:30, and a few on their own.
  await comment(postId, friend.id, [20, 20.2, 20.4, 20.5, 20.6], [member.id, friend.id]);
  await comment(postId, member.id, [20.3], []);
  await comment(postId, friend.id, [6, 6.3]);
  await comment(postId, friend.id, [30], [member.id]);
  await comment(postId, friend.id, [2]);
  await comment(postId, friend.id, [12]);
  await comment(postId, friend.id, [37]);

  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(hot(page)).toHaveCount(3);
  await expect(hot(page).nth(0)).toHaveAccessibleName("Jump to 0:20 — 6 comments and 2 reactions");
  await expect(hot(page).nth(1)).toHaveAccessibleName("Jump to 0:06 — 2 comments");
  await expect(hot(page).nth(2)).toHaveAccessibleName("Jump to 0:30 — 1 comment and 1 reaction");
  await checkPage(page, "heat-strip");

  // A jump point seeks the player there and plays.
  await hot(page).nth(1).click();
  await expect.poll(() => media(page).evaluate((element: HTMLMediaElement) => element.currentTime)).toBeGreaterThanOrEqual(6);
  await expect.poll(() => media(page).evaluate((element: HTMLMediaElement) => element.currentTime)).toBeLessThan(9);
  await media(page).evaluate((element: HTMLMediaElement) => element.pause());

  // Nine comments at 0:33 arrive on the room's channel: the strip reads itself again and 0:33 is now the hottest.
  await comment(
    postId,
    friend.id,
    Array.from({ length: 9 }, (_, i) => 33.4 + i * 0.08),
  );
  await expect(hot(page).nth(0)).toHaveAccessibleName("Jump to 0:33 — 9 comments", { timeout: 15_000 });
  await expect(hot(page).nth(1)).toHaveAccessibleName("Jump to 0:20 — 6 comments and 2 reactions");
  await expect(hot(page).nth(2)).toHaveAccessibleName("Jump to 0:06 — 2 comments");

  // One of them deleted: the strip follows that too.
  const { data: late } = await service
    .from("moments")
    .select("id")
    .eq("post_id", postId)
    .gte("at_seconds", 33)
    .lt("at_seconds", 35)
    .limit(1)
    .single();
  const removed = await service
    .from("moments")
    .delete()
    .eq("id", (late as { id: string }).id);
  expect(removed.error).toBeNull();
  await expect(hot(page).nth(0)).toHaveAccessibleName("Jump to 0:33 — 8 comments", { timeout: 15_000 });
  expect(errors).toEqual([]);
});

test("a link post's visitor sees where the room reacted; a post nobody commented on has no strip", async ({ page }) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("heat-link");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "heat-link-room");
  const posted = async (title: string) => {
    const { data, error } = await ownerClient
      .from("posts")
      .insert({
        room_id: room.id,
        author_id: owner.id,
        title,
        media_kind: "embed",
        media_url: "https://vimeo.com/76979871",
        duration_seconds: 300,
      })
      .select("id")
      .single();
    if (error || !data) throw error;
    return (data as { id: string }).id;
  };
  const postId = await posted("A long set");
  const quiet = await posted("Nobody has said anything yet");
  await comment(postId, owner.id, [134, 134.5, 135, 136], [owner.id]);
  await comment(postId, owner.id, [62]);

  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(hot(page)).toHaveCount(2);
  await expect(hot(page).nth(0)).toHaveAccessibleName("Jump to 2:14 — 4 comments and 1 reaction");
  await expect(hot(page).nth(1)).toHaveAccessibleName("Jump to 1:02 — 1 comment");
  await checkPage(page, "heat-strip-link-visitor");

  await page.goto(`/r/${room.slug}/p/${quiet}`);
  await expect(page.getByRole("heading", { name: "Nobody has said anything yet" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Where the room reacted" })).toHaveCount(0);
  expect(errors).toEqual([]);
});

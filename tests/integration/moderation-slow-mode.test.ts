// Slow mode through the API: the owner or a moderator sets it; a member's comments closer together
// than the room's gap are refused, saying how long to wait — also when two are sent at the same
// moment (the database serialises them per person and room, so exactly one goes through);
// moderators and the owner are exempt. (supabase/migrations/20261129000400_slow_mode_….sql)
import { afterAll, beforeAll, expect, test } from "vitest";
import { moderationRefusal } from "../../lib/moderation/errors";
import { roomStanding } from "../../lib/moderation/queries";
import { composerNotice } from "../../lib/moderation/standing";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery } from "../helpers/stack";

let owner: TestUser, moderator: TestUser, member: TestUser, second: TestUser;
let room: { id: string };
let postId: string;

beforeAll(async () => {
  [owner, moderator, member, second] = await Promise.all(
    ["sm-owner", "sm-moderator", "sm-member", "sm-second"].map((label) => signedInUser(label)),
  );
  room = await createRoom(owner.id, "public");
  await addMember(room.id, moderator.id, "moderator");
  await addMember(room.id, member.id);
  await addMember(room.id, second.id);
  const [post] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, 'Slow', 'embed', 'https://vimeo.com/1') returning id",
    [room.id, owner.id],
  );
  postId = post.id;
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, moderator, member, second);
});

const comment = (user: TestUser, body: string) => user.client.from("moments").insert({ post_id: postId, author_id: user.id, body });
const count = async (user: TestUser) =>
  Number((await adminQuery<{ n: string }>("select count(*) as n from public.moments where author_id = $1", [user.id]))[0].n);

test("members cannot set slow mode; a moderator sets it, within its range, and the change is logged", async () => {
  expect((await member.client.rpc("set_slow_mode", { room_id: room.id, seconds: 30 })).error).toMatchObject({ code: "42501" });
  expect((await moderator.client.rpc("set_slow_mode", { room_id: room.id, seconds: 2 })).error).toMatchObject({
    code: "22023",
    message: "Slow mode is off (0) or from 5 seconds to 1 hour",
  });
  expect((await moderator.client.rpc("set_slow_mode", { room_id: room.id, seconds: 30 })).data).toBe(30);
  expect((await member.client.from("rooms").select("slow_mode_seconds").eq("id", room.id).single()).data).toEqual({
    slow_mode_seconds: 30,
  });
  const log = await owner.client.from("moderation_log").select("action, actor_id, reason").eq("room_id", room.id);
  expect(log.data).toEqual([{ action: "slow_mode_changed", actor_id: moderator.id, reason: "one comment every 30 seconds" }]);
});

test("of two comments sent at the same moment, the second is refused, saying how long to wait", async () => {
  // five at once: without the per-person lock, more than one would pass the look at the last comment
  const answers = await Promise.all(["first", "second", "third", "fourth", "fifth"].map((body) => comment(member, body)));
  const refused = answers.filter((answer) => answer.error);
  expect(answers.length - refused.length).toBe(1);
  for (const answer of refused) {
    expect(answer.error).toMatchObject({ code: "PT429", hint: "slow_mode" });
    expect(answer.error!.message).toMatch(/^Slow mode is on in this room — you can comment again in (2\d|30) seconds$/);
    expect(moderationRefusal(answer.error)).toMatch(/^Slow mode is on in this room — you can comment again in \d+ seconds\.$/);
  }
  expect(await count(member)).toBe(1);

  // another member's gap is their own; the standing says when the next may go
  expect((await comment(second, "mine")).error).toBeNull();
  const standing = await roomStanding(member.client as never, room.id);
  expect(standing).toMatchObject({ slowModeSeconds: 30, slowModeApplies: true });
  expect(Date.parse(standing.nextCommentAt!) - Date.now()).toBeGreaterThan(20_000);
  expect(composerNotice(standing)).toMatch(/^Slow mode is on in this room — you can comment again in \d+ seconds\.$/);
});

test("moderators and the owner are exempt, at the same moment too", async () => {
  const answers = await Promise.all([comment(moderator, "a"), comment(moderator, "b"), comment(owner, "c"), comment(owner, "d")]);
  expect(answers.map((answer) => answer.error)).toEqual([null, null, null, null]);
  expect(await roomStanding(moderator.client as never, room.id)).toMatchObject({ slowModeApplies: false, nextCommentAt: null });
});

test("once the gap has passed, or slow mode is off, the member comments again", async () => {
  await adminQuery("update public.moments set created_at = now() - interval '31 seconds' where author_id = $1", [member.id]);
  expect((await comment(member, "later")).error).toBeNull();
  expect((await comment(member, "too soon")).error).toMatchObject({ code: "PT429" });
  expect((await owner.client.rpc("set_slow_mode", { room_id: room.id, seconds: 0 })).data).toBe(0);
  expect((await comment(member, "free")).error).toBeNull();
});

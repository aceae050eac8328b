// Timeouts through the API: supabase-js as the owner, a moderator and the timed-out member. While the
// timeout lasts, the member's comment, reaction, post, queue suggestion and session start are refused
// in words that say until when (the time in DETAIL, shown in the reader's zone by
// lib/moderation/errors.ts); they still read. When the time passes (moved into the past as the
// database owner), the same writes go through. (supabase/migrations/20261129000300_timeouts.sql)
import { afterAll, beforeAll, expect, test } from "vitest";
import { moderationRefusal } from "../../lib/moderation/errors";
import { roomStanding, roomTimeouts } from "../../lib/moderation/queries";
import { composerNotice } from "../../lib/moderation/standing";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery } from "../helpers/stack";

let owner: TestUser, moderator: TestUser, member: TestUser, other: TestUser;
let room: { id: string };
let postId: string, otherPostId: string, momentId: string, sessionId: string;

beforeAll(async () => {
  [owner, moderator, member, other] = await Promise.all(
    ["to-owner", "to-moderator", "to-member", "to-other"].map((label) => signedInUser(label)),
  );
  room = await createRoom(owner.id, "public");
  await addMember(room.id, moderator.id, "moderator");
  await addMember(room.id, member.id);
  await addMember(room.id, other.id);
  await adminQuery("update public.rooms set session_starters = 'members' where id = $1", [room.id]);
  const made = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, 'One', 'embed', 'https://vimeo.com/1'), ($1, $2, 'Two', 'embed', 'https://vimeo.com/2') returning id",
    [room.id, owner.id],
  );
  [postId, otherPostId] = made.map((row) => row.id);
  const [moment] = await adminQuery<{ id: string }>(
    "insert into public.moments (post_id, author_id, body) values ($1, $2, 'hello') returning id",
    [postId, other.id],
  );
  momentId = moment.id;
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, moderator, member, other);
});

const writes = {
  comment: () => member.client.from("moments").insert({ post_id: postId, author_id: member.id, body: "let me in" }),
  reaction: () => member.client.from("reactions").insert({ moment_id: momentId, user_id: member.id, emoji: "🔥" }),
  post: () =>
    member.client
      .from("posts")
      .insert({ room_id: room.id, author_id: member.id, title: "Mine", media_kind: "embed", media_url: "https://vimeo.com/3" }),
  suggestion: () => member.client.from("session_queue").insert({ session_id: sessionId, post_id: otherPostId, added_by: member.id }),
};

test("a member cannot time out anyone; a moderator times out a member, and the log says so", async () => {
  const refused = await member.client.rpc("time_out_member", { room_id: room.id, user_id: other.id, minutes: 10, reason: "" });
  expect(refused.error).toMatchObject({ code: "42501", message: "Only the room's owner and moderators can time out people" });
  const tooShort = await moderator.client.rpc("time_out_member", { room_id: room.id, user_id: member.id, minutes: 5, reason: "" });
  expect(tooShort.error).toMatchObject({ code: "22023", message: "A timeout lasts from 10 minutes to 28 days" });
  const onOwner = await moderator.client.rpc("time_out_member", { room_id: room.id, user_id: owner.id, minutes: 10, reason: "" });
  expect(onOwner.error).toMatchObject({ code: "42501", message: "Nobody can time out the room's owner" });

  const { data: started, error } = await owner.client.rpc("start_listening_session", { room_id: room.id });
  expect(error).toBeNull();
  sessionId = (started as { id: string }).id;

  const done = await moderator.client.rpc("time_out_member", { room_id: room.id, user_id: member.id, minutes: 10, reason: "flooding" });
  expect(done.error).toBeNull();
  expect(Date.parse(done.data!.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
  const log = await owner.client.from("moderation_log").select("action, actor_id, target_user_id").eq("room_id", room.id);
  expect(log.data).toEqual([{ action: "timeout", actor_id: moderator.id, target_user_id: member.id }]);
  expect((await other.client.from("timeouts").select("user_id").eq("room_id", room.id)).data).toEqual([]);
  expect(await roomTimeouts(owner.client as never, room.id)).toEqual([
    expect.objectContaining({ userId: member.id, reason: "flooding", byUsername: expect.any(String), expiresAt: done.data!.expires_at }),
  ]);
});

test("while timed out, the member's comment, reaction, post, suggestion and session start are refused, saying until when; they still read", async () => {
  const until = (await adminQuery<{ expires_at: Date }>("select expires_at from public.timeouts where room_id = $1", [room.id]))[0]
    .expires_at;
  for (const [what, write] of Object.entries(writes)) {
    const { error } = await write();
    expect(error, what).toMatchObject({ code: "42501", hint: "timed_out" });
    expect(error!.message, what).toMatch(/^You're timed out until .+ UTC — you can still read and listen\.$/);
    expect(Date.parse(error!.details), what).toBe(Math.floor(until.getTime() / 1000) * 1000);
  }
  const { error } = await writes.comment();
  expect(moderationRefusal(error, { timeZone: "UTC" })).toMatch(
    /^You're timed out until (tomorrow at )?\d\d:\d\d — you can still read and listen\.$/,
  );
  const start = await member.client.rpc("start_listening_session", { room_id: room.id });
  expect(start.error).toMatchObject({ code: "42501" });
  expect(start.error!.message).toMatch(/^You're timed out until /);
  expect(
    await adminQuery("select 1 from public.moments where author_id = $1 union all select 1 from public.reactions where user_id = $1", [
      member.id,
    ]),
  ).toEqual([]);

  // reading goes on
  expect((await member.client.from("moments").select("body").eq("post_id", postId)).data).toEqual([{ body: "hello" }]);
  const standing = await roomStanding(member.client as never, room.id);
  expect(standing).toMatchObject({ timeoutReason: "flooding", banned: false });
  expect(Date.parse(standing.timedOutUntil!)).toBe(until.getTime());
  expect(composerNotice(standing, { timeZone: "UTC" })).toMatch(
    /^You're timed out until (tomorrow at )?\d\d:\d\d — you can still read and listen\.$/,
  );
});

test("when the time passes, the same writes go through", async () => {
  await adminQuery(
    "update public.timeouts set created_at = now() - interval '11 minutes', expires_at = now() - interval '1 second' where room_id = $1",
    [room.id],
  );
  for (const [what, write] of Object.entries(writes)) {
    const { error } = await write();
    expect(error, what).toBeNull();
  }
  expect((await roomStanding(member.client as never, room.id)).timedOutUntil).toBeNull();
});

test("a timeout lifted early ends at once, and the lift is logged", async () => {
  expect((await owner.client.rpc("time_out_member", { room_id: room.id, user_id: other.id, minutes: 60, reason: "" })).error).toBeNull();
  expect((await other.client.from("reactions").insert({ moment_id: momentId, user_id: other.id, emoji: "👏" })).error).toMatchObject({
    code: "42501",
  });
  expect((await other.client.rpc("lift_timeout", { room_id: room.id, user_id: other.id })).error).toMatchObject({ code: "42501" });
  expect((await moderator.client.rpc("lift_timeout", { room_id: room.id, user_id: other.id })).error).toBeNull();
  expect((await other.client.from("reactions").insert({ moment_id: momentId, user_id: other.id, emoji: "👏" })).error).toBeNull();
  const lifted = await owner.client.from("moderation_log").select("actor_id").eq("room_id", room.id).eq("action", "timeout_lifted");
  expect(lifted.data).toEqual([{ actor_id: moderator.id }]);
});

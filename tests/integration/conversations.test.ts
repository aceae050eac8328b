// Mentions and notifications through the API, as the app's people reach them with supabase-js, in a
// gated room: a mention of someone who cannot read the room names nobody and tells nobody; a member
// whose gated membership lapsed is still told that someone answered their comment, and the answer's
// words, the post's title and the post itself stay out of their reach.
// (supabase/migrations/20261130000200_mentions_and_notifications.sql)
import { afterAll, beforeAll, expect, test } from "vitest";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery } from "../helpers/stack";

let owner: TestUser, member: TestUser, outsider: TestUser;
let usernames: Record<string, string>;
let room: { id: string };
let postId: string;

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all(["cv-owner", "cv-member", "cv-outsider"].map((label) => signedInUser(label)));
  room = await createRoom(owner.id, "gated");
  await addMember(room.id, member.id);
  const rows = await adminQuery<{ id: string; username: string }>("select id, username from public.profiles where id = any($1::uuid[])", [
    [owner.id, member.id, outsider.id],
  ]);
  usernames = Object.fromEntries(rows.map((r) => [r.id, r.username]));
  const [post] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'Members-only track', 'embed', 'https://vimeo.com/1', 300) returning id",
    [room.id, owner.id],
  );
  postId = post.id;
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, member, outsider);
});

const notificationsOf = async (user: TestUser) => {
  const { data, error } = await user.client.rpc("my_notifications", {});
  expect(error).toBeNull();
  return data!;
};

test("a mention of someone who cannot read a gated room names nobody and tells nobody; a member is named and told", async () => {
  const { data: comment, error } = await member.client
    .from("moments")
    .insert({
      post_id: postId,
      author_id: member.id,
      at_seconds: 102,
      body: `@${usernames[outsider.id]} and @${usernames[owner.id]}, listen to this`,
    })
    .select("id")
    .single();
  expect(error).toBeNull();
  // Written by the comment's trigger: read after the insert (its own statement does not see them).
  const { data: mentions } = await member.client.from("mentions").select("user_id, handle").eq("moment_id", comment!.id);
  expect(mentions).toEqual([{ user_id: owner.id, handle: usernames[owner.id] }]);
  expect(await notificationsOf(outsider)).toEqual([]);
  expect(await adminQuery("select 1 from public.notifications where user_id = $1", [outsider.id])).toEqual([]);
  const [told] = await notificationsOf(owner);
  expect(told).toMatchObject({
    kind: "mention",
    actor_id: member.id,
    moment_id: comment!.id,
    at_seconds: 102,
    post_title: "Members-only track",
  });
  expect(told.excerpt).toContain("listen to this");
  // The outsider cannot read the comment's mentions either.
  expect((await outsider.client.from("mentions").select("id").eq("moment_id", comment!.id)).data).toEqual([]);
});

test("a reply to a lapsed member's comment tells them someone answered, without its words, the title or the post", async () => {
  const { data: theirs, error } = await member.client
    .from("moments")
    .insert({ post_id: postId, author_id: member.id, at_seconds: 30, body: "my take" })
    .select("id")
    .single();
  expect(error).toBeNull();
  // Their last balance check is two hours old: the membership no longer counts.
  await adminQuery("update public.memberships set verified_at = now() - interval '2 hours' where room_id = $1 and user_id = $2", [
    room.id,
    member.id,
  ]);
  const reply = await owner.client
    .from("moments")
    .insert({ post_id: postId, author_id: owner.id, body: "secret answer", parent_id: theirs!.id })
    .select("id, at_seconds")
    .single();
  expect(reply.error).toBeNull();
  expect(reply.data!.at_seconds).toBe(30);

  const told = (await notificationsOf(member)).find((n: { moment_id: string | null }) => n.moment_id === reply.data!.id);
  expect(told).toMatchObject({
    kind: "reply",
    actor_id: owner.id,
    room_name: expect.stringContaining("Room"),
    excerpt: null,
    post_title: null,
  });
  expect(JSON.stringify(await notificationsOf(member))).not.toContain("secret answer");
  expect((await member.client.from("moments").select("id").eq("id", reply.data!.id)).data).toEqual([]);
  expect((await member.client.from("posts").select("id").eq("id", postId)).data).toEqual([]);
  const { data: unread } = await member.client.rpc("unread_notification_count");
  expect(unread).toBeGreaterThanOrEqual(1);
});

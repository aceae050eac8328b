// Replays through /rest/v1 with the real supabase-js: a session played through its functions
// leaves its history (written by the database), and the replay page's reads (lib/sessions/
// replay-queries.ts) answer each kind of reader exactly what they may read of it.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getRecentReplays, getReplay } from "../../lib/sessions/replay-queries";
import { stretchesOf, tracksOf } from "../../lib/sessions/replay";
import type { Database } from "../../types/database";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient, serviceClient } from "../helpers/stack";

let owner: TestUser, host: TestUser, member: TestUser, outsider: TestUser, lapsed: TestUser, banned: TestUser;
let open: { id: string }, gated: { id: string };
const posts: Record<string, string> = {};
const sessions: Record<string, string> = {};

const typed = (client: SupabaseClient) => client as unknown as SupabaseClient<Database>;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newPost(roomId: string, title: string): Promise<string> {
  const rows = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', 120) returning id",
    [roomId, host.id, title],
  );
  return rows[0].id;
}

async function ok<T>(answer: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await answer;
  expect(error).toBeNull();
  return data;
}

/** A session in `roomId`: first plays, a comment (and a reaction to it), second plays, a comment, ended. */
async function playSession(roomId: string, first: string, second: string, label: string): Promise<string> {
  const session = await ok(host.client.rpc("start_listening_session", { room_id: roomId, post_id: first }));
  const id = (session as { id: string }).id;
  await ok(host.client.rpc("set_session_playback", { session_id: id, post_id: first, position_seconds: 0, playing: true }));
  await wait(300);
  const comment = await ok(
    member.client
      .from("moments")
      .insert({ post_id: first, author_id: member.id, at_seconds: 0.3, body: `${label}: during the first`, session_id: id })
      .select("id")
      .single(),
  );
  await ok(host.client.from("reactions").insert({ moment_id: (comment as { id: string }).id, user_id: host.id, emoji: "🔥" }));
  await wait(300);
  await ok(host.client.rpc("set_session_playback", { session_id: id, post_id: second, position_seconds: 5, playing: true }));
  await wait(300);
  await ok(
    member.client
      .from("moments")
      .insert({ post_id: second, author_id: member.id, at_seconds: 5.3, body: `${label}: during the second`, session_id: id })
      .select("id")
      .single(),
  );
  await ok(
    member.client
      .from("moments")
      .insert({ post_id: second, author_id: member.id, at_seconds: 5.4, body: `${label}: held back`, session_id: id })
      .select("id")
      .single(),
  );
  await adminQuery("update public.moments set held_at = now() where body = $1", [`${label}: held back`]);
  await wait(200);
  await ok(host.client.rpc("end_listening_session", { session_id: id }));
  return id;
}

beforeAll(async () => {
  [owner, host, member, outsider, lapsed, banned] = await Promise.all(
    ["rp-owner", "rp-host", "rp-member", "rp-outsider", "rp-lapsed", "rp-banned"].map((label) => signedInUser(label)),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, host.id, "moderator");
    await addMember(room.id, member.id);
  }
  await addMember(gated.id, lapsed.id);
  await addMember(gated.id, banned.id);
  posts.a = await newPost(gated.id, "Replay A");
  posts.b = await newPost(gated.id, "Replay B");
  posts.openA = await newPost(open.id, "Open A");
  posts.openB = await newPost(open.id, "Open B");
  sessions.gated = await playSession(gated.id, posts.a, posts.b, "gated");
  sessions.open = await playSession(open.id, posts.openA, posts.openB, "open");
  await adminQuery("update public.memberships set verified_at = now() - interval '3 hours' where room_id = $1 and user_id = $2", [
    gated.id,
    lapsed.id,
  ]);
  await ok(owner.client.rpc("ban_member", { room_id: gated.id, user_id: banned.id, reason: "replay test" }));
}, 30_000);

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open?.id, gated?.id].filter(Boolean)]);
  await deleteUsers(owner, host, member, outsider, lapsed, banned);
});

describe("a session's replay", () => {
  test("a member reads the tracks in order with their times, and the comments and reactions at their moments", async () => {
    const replay = await getReplay(typed(member.client), gated.id, sessions.gated);
    expect(replay).not.toBeNull();
    const { session, history, posts: playable, comments } = replay!;
    expect(session.ended_at).not.toBeNull();
    const tracks = tracksOf(stretchesOf(history, session));
    expect(tracks.map((track) => track.postId)).toEqual([posts.a, posts.b]);
    expect(tracks[1]!.from).toBe(5);
    expect(tracks[0]!.startMs).toBeLessThan(tracks[1]!.startMs);
    expect(playable.map((post) => post.title).sort()).toEqual(["Replay A", "Replay B"]);
    // Their own held comment is theirs to read, as on the post page.
    expect(comments.map((comment) => comment.body)).toEqual(["gated: during the first", "gated: during the second", "gated: held back"]);
    const first = comments[0]!;
    expect(Date.parse(first.created_at)).toBeGreaterThanOrEqual(Date.parse(session.started_at) + tracks[0]!.startMs);
    expect(Date.parse(first.created_at)).toBeLessThan(Date.parse(session.started_at) + tracks[1]!.startMs);
    expect(first.author?.username).toBeTruthy();
    expect(first.reactions.map((reaction) => reaction.emoji)).toEqual(["🔥"]);
    expect(Date.parse(first.reactions[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(first.created_at));
  });

  test("someone else in the room does not read a held comment, and the room page's list counts what they see", async () => {
    const replay = await getReplay(typed(host.client), gated.id, sessions.gated);
    // The host moderates this room: they review held comments.
    expect(replay!.comments).toHaveLength(3);
    const asOwner = await getReplay(typed(owner.client), gated.id, sessions.gated);
    expect(asOwner!.comments).toHaveLength(3);
    await addMember(gated.id, outsider.id);
    try {
      const asMember = await getReplay(typed(outsider.client), gated.id, sessions.gated);
      expect(asMember!.comments.map((comment) => comment.body)).toEqual(["gated: during the first", "gated: during the second"]);
      expect(await getRecentReplays(typed(outsider.client), gated.id)).toEqual([
        expect.objectContaining({ session_id: sessions.gated, tracks: 2, comments: 2 }),
      ]);
    } finally {
      await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [gated.id, outsider.id]);
    }
  });

  test("a visitor replays a public room's session, not a gated one's", async () => {
    const anon = typed(anonClient());
    const replay = await getReplay(anon, open.id, sessions.open);
    expect(replay!.history.length).toBeGreaterThanOrEqual(2);
    expect(replay!.comments.map((comment) => comment.body)).toEqual(["open: during the first", "open: during the second"]);
    expect(await getRecentReplays(anon, open.id)).toEqual([expect.objectContaining({ session_id: sessions.open, tracks: 2, comments: 2 })]);
    expect(await getReplay(anon, gated.id, sessions.gated)).toBeNull();
    expect(await getRecentReplays(anon, gated.id)).toEqual([]);
    // …nor by naming the gated session under the public room
    expect(await getReplay(anon, open.id, sessions.gated)).toBeNull();
  });

  test("someone who is not a member, a lapsed member and a banned one read nothing of a gated room's replay", async () => {
    for (const reader of [outsider, lapsed, banned]) {
      expect(await getReplay(typed(reader.client), gated.id, sessions.gated)).toBeNull();
      expect(await getRecentReplays(typed(reader.client), gated.id)).toEqual([]);
      const { data } = await reader.client.from("session_history").select("id").eq("session_id", sessions.gated);
      expect(data).toEqual([]);
    }
  });

  test("nobody writes the history through the API, the service role included", async () => {
    for (const client of [host.client, owner.client, anonClient(), serviceClient()]) {
      const { error } = await client.from("session_history").insert({
        session_id: sessions.open,
        room_id: open.id,
        post_id: posts.openA,
        started_at: new Date().toISOString(),
        position_seconds: 0,
        playing: true,
        rate: 1,
      });
      expect(error?.code).toBe("42501");
      const removed = await client.from("session_history").delete().eq("session_id", sessions.open).select("id");
      expect(removed.error?.code).toBe("42501");
    }
    expect(
      (await adminQuery("select id from public.session_history where session_id = $1", [sessions.open])).length,
    ).toBeGreaterThanOrEqual(2);
  });

  test("a deleted post leaves the replay", async () => {
    await ok(host.client.from("posts").delete().eq("id", posts.openB));
    const replay = await getReplay(typed(member.client), open.id, sessions.open);
    expect(tracksOf(stretchesOf(replay!.history, replay!.session)).map((track) => track.postId)).toEqual([posts.openA]);
    expect(await getRecentReplays(typed(member.client), open.id)).toEqual([expect.objectContaining({ tracks: 1 })]);
  });
});

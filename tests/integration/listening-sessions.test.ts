// Listening sessions through /rest/v1 with the real supabase-js, as each kind of person: every
// session function with the HTTP status, code and words of each refusal (what the page shows), the
// queue written directly under its policies, moments stamped with their session, and who reads.
import type { PostgrestError, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SessionRow } from "../../lib/sessions/types";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient, serviceClient } from "../helpers/stack";

let owner: TestUser, moderator: TestUser, host: TestUser, member: TestUser, outsider: TestUser;
let open: { id: string }, gated: { id: string };
const posts: Record<string, string> = {};

interface Answer {
  data: unknown;
  error: PostgrestError | null;
  status: number;
}

function refused(answer: Answer, status: number, code: string, message: string) {
  expect(answer.data).toBeNull();
  expect({ status: answer.status, code: answer.error?.code, message: answer.error?.message }).toEqual({ status, code, message });
}

function accepted<T = SessionRow>(answer: Answer): T {
  expect(answer.error).toBeNull();
  expect(answer.status).toBe(200);
  return answer.data as T;
}

const start = (client: SupabaseClient, roomId: string, postId?: string) =>
  client.rpc("start_listening_session", { room_id: roomId, ...(postId ? { post_id: postId } : {}) });
const play = (
  client: SupabaseClient,
  sessionId: string,
  postId: string | null,
  position: number,
  playing: boolean,
  extra: { rate?: number; at?: string } = {},
) =>
  client.rpc("set_session_playback", { session_id: sessionId, post_id: postId as string, position_seconds: position, playing, ...extra });
const next = (client: SupabaseClient, sessionId: string, afterPostId: string | null) =>
  client.rpc("play_next_in_session", { session_id: sessionId, after_post_id: afterPostId as string });
const claim = (client: SupabaseClient, sessionId: string, expectedHost: string | null) =>
  client.rpc("claim_session_host", { session_id: sessionId, expected_host_id: expectedHost as string });
const queue = (user: TestUser, sessionId: string, postId: string) =>
  user.client
    .from("session_queue")
    .insert({ session_id: sessionId, post_id: postId, added_by: user.id })
    .select("status, room_id, sort_key")
    .single();

const stored = async (sessionId: string) =>
  (await adminQuery<SessionRow & { version: string }>("select * from public.listening_sessions where id = $1", [sessionId]))[0];
const quietFor = (sessionId: string, seconds: number) =>
  adminQuery("update public.listening_sessions set host_seen_at = clock_timestamp() - make_interval(secs => $2) where id = $1", [
    sessionId,
    seconds,
  ]);
const endAll = (roomId: string) =>
  adminQuery(
    "update public.listening_sessions set ended_at = greatest(now(), started_at), playing = false where room_id = $1 and ended_at is null",
    [roomId],
  );

async function newPost(roomId: string, title: string, duration: number | null = 120): Promise<string> {
  const rows = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', $4) returning id",
    [roomId, member.id, title, duration],
  );
  return rows[0].id;
}

/** A fresh live session in the gated room, hosted by `host`, playing nothing yet. */
async function gatedSession(postId?: string): Promise<SessionRow> {
  await endAll(gated.id);
  return accepted(await start(host.client, gated.id, postId));
}

beforeAll(async () => {
  [owner, moderator, host, member, outsider] = await Promise.all(
    ["ls-owner", "ls-moderator", "ls-host", "ls-member", "ls-outsider"].map((label) => signedInUser(label)),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, moderator.id, "moderator");
    await addMember(room.id, host.id);
    await addMember(room.id, member.id);
  }
  await adminQuery("update public.rooms set session_starters = 'members' where id = $1", [gated.id]);
  posts.open = await newPost(open.id, "Open");
  posts.a = await newPost(gated.id, "A");
  posts.b = await newPost(gated.id, "B", 60);
  posts.c = await newPost(gated.id, "C");
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open?.id, gated?.id].filter(Boolean)]);
  await deleteUsers(owner, moderator, host, member, outsider);
});

describe("a session's life through REST", () => {
  test("it starts with the room's newest posts queued by the host; live_sessions shows it to who may read the room and ends it once nobody follows", async () => {
    const session = await gatedSession(posts.b);
    const rpcStart = await host.client.rpc("start_listening_session", { room_id: gated.id, queue_recent: 21 });
    refused(rpcStart, 400, "22023", "A new session queues between 0 and 20 of the room's posts");
    await endAll(gated.id);
    const started = accepted(await host.client.rpc("start_listening_session", { room_id: gated.id, post_id: posts.b, queue_recent: 10 }));
    const queued = await adminQuery<{ post_id: string; status: string; added_by: string }>(
      "select post_id, status, added_by from public.session_queue where session_id = $1 order by sort_key",
      [started.id],
    );
    expect(queued.map((row) => row.post_id).sort()).toEqual([posts.a, posts.c].sort());
    expect(queued.every((row) => row.status === "queued" && row.added_by === host.id)).toBe(true);
    expect(session.id).not.toBe(started.id);

    const live = (client: SupabaseClient) => client.rpc("live_sessions", { room_ids: [gated.id, open.id] });
    expect(accepted<{ room_id: string }[]>(await live(anonClient())).map((row) => row.room_id)).not.toContain(gated.id);
    expect(accepted<{ room_id: string }[]>(await live(outsider.client)).map((row) => row.room_id)).not.toContain(gated.id);
    expect(accepted<{ session_id: string; listeners: number }[]>(await live(member.client))).toContainEqual(
      expect.objectContaining({ session_id: started.id, listeners: 0 }),
    );
    // Nobody has followed it for over two minutes: an outsider's read ends nothing of a room they may not read…
    await quietFor(started.id, 121);
    await live(outsider.client);
    expect(
      (await adminQuery<{ ended_at: string | null }>("select ended_at from public.listening_sessions where id = $1", [started.id]))[0]
        .ended_at,
    ).toBeNull();
    // …a member's read ends it, and finds nothing on.
    expect(accepted<{ room_id: string }[]>(await live(member.client)).map((row) => row.room_id)).not.toContain(gated.id);
    expect(
      (await adminQuery<{ ended_at: string | null }>("select ended_at from public.listening_sessions where id = $1", [started.id]))[0]
        .ended_at,
    ).not.toBeNull();
  });
});

describe("starting a session", () => {
  test("refusals: anon 401; the service role, an outsider and a member where moderators start 403; another room's post 409; a malformed id 400", async () => {
    refused(await start(anonClient(), open.id), 401, "42501", "permission denied for function start_listening_session");
    refused(await start(serviceClient(), open.id), 403, "42501", "Sign in to listen together");
    refused(await start(outsider.client, open.id), 403, "42501", "Join the room to start a session");
    refused(await start(member.client, open.id), 403, "42501", "Only the owner and moderators can start a session in this room");
    refused(await start(moderator.client, open.id, posts.a), 409, "23503", "That post isn't in this room");
    refused(await start(moderator.client, "nope"), 400, "22P02", 'invalid input syntax for type uuid: "nope"');
    expect(await adminQuery("select 1 from public.listening_sessions where room_id = $1", [open.id])).toEqual([]);
  });

  test("a moderator starts one with a post loaded; a second start is 409 with words to join it", async () => {
    const session = accepted(await start(moderator.client, open.id, posts.open));
    expect(session).toMatchObject({
      room_id: open.id,
      host_id: moderator.id,
      started_by: moderator.id,
      post_id: posts.open,
      playing: false,
      position_seconds: 0,
      rate: 1,
      version: 1,
      ended_at: null,
    });
    refused(await start(owner.client, open.id), 409, "PT409", "A session is already on in this room — join it");
  });

  test("where the owner lets members start, a member does; a session quiet for over 2 minutes makes way for a new one", async () => {
    const first = await gatedSession();
    expect(first.host_id).toBe(host.id);
    refused(await start(member.client, gated.id), 409, "PT409", "A session is already on in this room — join it");
    await quietFor(first.id, 121);
    const second = accepted(await start(member.client, gated.id));
    expect(second.host_id).toBe(member.id);
    expect((await stored(first.id)).ended_at).not.toBeNull();
  });

  test("only the owner decides who may start: a moderator's change is refused with its reason", async () => {
    const byModerator = await moderator.client
      .from("rooms")
      .update({ session_starters: "moderators" })
      .eq("id", gated.id)
      .select("session_starters");
    refused(byModerator, 403, "42501", "Only the owner decides who may start listening sessions");
    const byMember = await member.client
      .from("rooms")
      .update({ session_starters: "moderators" })
      .eq("id", gated.id)
      .select("session_starters");
    expect(byMember).toMatchObject({ error: null, data: [] });
    const bad = await owner.client.from("rooms").update({ session_starters: "everyone" }).eq("id", open.id).select("session_starters");
    refused(bad, 400, "23514", 'new row for relation "rooms" violates check constraint "rooms_session_starters"');
    const byOwner = await owner.client.from("rooms").update({ session_starters: "members" }).eq("id", open.id).select("session_starters");
    expect(byOwner).toMatchObject({ error: null, data: [{ session_starters: "members" }] });
    await owner.client.from("rooms").update({ session_starters: "moderators" }).eq("id", open.id);
  });
});

describe("playback: the host only", () => {
  test("everyone else is refused with who may; nothing changes", async () => {
    const session = await gatedSession(posts.a);
    refused(await play(anonClient(), session.id, posts.a, 1, true), 401, "42501", "permission denied for function set_session_playback");
    refused(await play(serviceClient(), session.id, posts.a, 1, true), 403, "42501", "Sign in to listen together");
    refused(
      await play(outsider.client, session.id, posts.a, 1, true),
      403,
      "42501",
      "Only members of the room can take part in its session",
    );
    for (const notHost of [member, moderator, owner])
      refused(await play(notHost.client, session.id, posts.a, 1, true), 403, "42501", "Only the host controls playback");
    refused(
      await play(host.client, crypto.randomUUID(), posts.a, 1, true),
      403,
      "42501",
      "Only members of the room can take part in its session",
    );
    expect((await stored(session.id)).version).toBe("1");
  });

  test("the host plays, pauses and seeks; a position past the end is clamped; bad input is refused with its reason", async () => {
    const session = await gatedSession(posts.a);
    expect(accepted(await play(host.client, session.id, posts.a, 10, true))).toMatchObject({
      post_id: posts.a,
      position_seconds: 10,
      playing: true,
      version: 2,
    });
    expect(accepted(await play(host.client, session.id, posts.a, 500, false))).toMatchObject({
      position_seconds: 120,
      playing: false,
      version: 3,
    });
    refused(
      await play(host.client, session.id, posts.a, -1, true),
      400,
      "23514",
      'new row for relation "listening_sessions" violates check constraint "listening_sessions_position_range"',
    );
    refused(
      await play(host.client, session.id, posts.a, 1, true, { rate: 3 }),
      400,
      "23514",
      'new row for relation "listening_sessions" violates check constraint "listening_sessions_rate_range"',
    );
    refused(await play(host.client, session.id, null, 0, true), 400, "22023", "Choose a post to play");
    refused(await play(host.client, session.id, posts.open, 0, true), 409, "23503", "That post isn't in this room");
    refused(
      await play(host.client, session.id, posts.a, 0, true, { at: "half past" }),
      400,
      "22007",
      'invalid input syntax for type timestamp with time zone: "half past"',
    );
    const misnamed = await host.client.rpc("set_session_playback", { session_id: session.id, position: 1 } as never);
    expect({ status: misnamed.status, code: misnamed.error?.code }).toEqual({ status: 404, code: "PGRST202" });
    expect((await stored(session.id)).version).toBe("3");
  });

  test("`at`, the host's estimate of the server's clock, is the state's time when plausible, else the server's now", async () => {
    const session = await gatedSession(posts.a);
    const serverNow = accepted<number>(await anonClient().rpc("server_clock_ms"));
    expect(Math.abs(serverNow - Date.now())).toBeLessThan(5_000);
    const plausible = new Date(serverNow - 1_000).toISOString();
    const kept = accepted(await play(host.client, session.id, posts.a, 5, true, { at: plausible }));
    expect(Date.parse(kept.state_at)).toBe(Date.parse(plausible));
    const stale = new Date(serverNow - 60_000).toISOString();
    const replaced = accepted(await play(host.client, session.id, posts.a, 5, true, { at: stale }));
    expect(Date.parse(replaced.state_at)).toBeGreaterThanOrEqual(serverNow - 1_000);
  });

  test("next: the first queued post plays; a double next advances once; an empty queue pauses", async () => {
    const session = await gatedSession(posts.a);
    accepted(await play(host.client, session.id, posts.a, 30, true));
    expect((await queue(host, session.id, posts.b)).data).toMatchObject({ status: "queued", room_id: gated.id });
    expect((await queue(host, session.id, posts.c)).data).toMatchObject({ status: "queued" });
    refused(await next(member.client, session.id, posts.a), 403, "42501", "Only the host controls playback");
    const [button, mediaEnd] = await Promise.all([next(host.client, session.id, posts.a), next(host.client, session.id, posts.a)]);
    expect([accepted(button).post_id, accepted(mediaEnd).post_id]).toEqual([posts.b, posts.b]);
    const now = await stored(session.id);
    expect(now).toMatchObject({ post_id: posts.b, position_seconds: 0, playing: true, version: "3" });
    expect(await adminQuery("select post_id from public.session_queue where session_id = $1", [session.id])).toEqual([
      { post_id: posts.c },
    ]);
    expect(accepted(await next(host.client, session.id, posts.b)).post_id).toBe(posts.c);
    const paused = accepted(await next(host.client, session.id, posts.c));
    expect(paused).toMatchObject({ post_id: posts.c, playing: false });
  });
});

describe("the host's place", () => {
  test("heartbeat: the host's answers the server's time and makes no new version; anyone else's is refused", async () => {
    const session = await gatedSession(posts.a);
    const beat = accepted<string>(await host.client.rpc("session_heartbeat", { session_id: session.id }));
    expect(Math.abs(Date.parse(beat) - Date.now())).toBeLessThan(5_000);
    expect((await stored(session.id)).version).toBe("1");
    refused(
      await member.client.rpc("session_heartbeat", { session_id: session.id }),
      403,
      "42501",
      "Only the host's page sends heartbeats",
    );
    refused(
      await outsider.client.rpc("session_heartbeat", { session_id: session.id }),
      403,
      "42501",
      "Only members of the room can take part in its session",
    );
  });

  test("claims: answered with who hosts (200, no error) while the host is here or when another host is named; allowed when quiet > 5 s, released, or the host left the room; after 2 minutes with nobody following, a claim ends it", async () => {
    const session = await gatedSession(posts.a);
    accepted(await play(host.client, session.id, posts.a, 42, true));
    // Losing the race is the expected outcome for most claimers: an answer naming the host, not a 409.
    const stillHere = await claim(member.client, session.id, host.id);
    expect(stillHere.status).toBe(200);
    expect(accepted(stillHere)).toMatchObject({ host_id: host.id, ended_at: null });
    expect(accepted(await claim(member.client, session.id, moderator.id))).toMatchObject({ host_id: host.id, ended_at: null });
    refused(await claim(outsider.client, session.id, host.id), 403, "42501", "Only members of the room can take part in its session");

    await quietFor(session.id, 6);
    const before = (await member.client.from("listening_sessions").select("state_at, version").eq("id", session.id).single()).data!;
    const claimed = accepted(await claim(member.client, session.id, host.id));
    expect(claimed).toMatchObject({
      host_id: member.id,
      post_id: posts.a,
      position_seconds: 42,
      playing: true,
      state_at: before.state_at,
      version: before.version + 1,
    });
    refused(await play(host.client, session.id, posts.a, 0, true), 403, "42501", "Only the host controls playback");

    expect(await member.client.rpc("release_session_host", { session_id: session.id })).toMatchObject({ error: null, status: 204 });
    expect(accepted(await claim(moderator.client, session.id, member.id)).host_id).toBe(moderator.id);

    await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [gated.id, moderator.id]);
    try {
      expect(accepted(await claim(host.client, session.id, moderator.id)).host_id).toBe(host.id);
    } finally {
      await addMember(gated.id, moderator.id, "moderator");
    }

    await quietFor(session.id, 121);
    const over = accepted(await claim(member.client, session.id, host.id));
    expect(over).toMatchObject({ id: session.id, host_id: host.id, playing: false });
    expect(over.ended_at).not.toBeNull();
    expect((await member.client.from("listening_sessions").select("id").eq("room_id", gated.id).is("ended_at", null)).data).toEqual([]);
    const again = accepted(await claim(member.client, session.id, host.id));
    expect(again.ended_at).not.toBeNull();
  });

  test("hand over: the host, moderators and the owner give it to a member; never to an outsider", async () => {
    const session = await gatedSession();
    const handOver = (by: TestUser, to: string) => by.client.rpc("hand_over_session", { session_id: session.id, new_host_id: to });
    refused(await handOver(member, member.id), 403, "42501", "Only the host, moderators and the owner can hand the session over");
    refused(await handOver(host, outsider.id), 409, "23503", "That person isn't a member of this room");
    expect(accepted(await handOver(host, member.id)).host_id).toBe(member.id);
    expect(accepted(await handOver(moderator, host.id)).host_id).toBe(host.id);
    expect(accepted(await handOver(owner, owner.id)).host_id).toBe(owner.id);
  });

  test("end: a member who does not host is refused; the host ends it, and an ended session refuses changes with 409", async () => {
    const session = await gatedSession(posts.a);
    refused(
      await member.client.rpc("end_listening_session", { session_id: session.id }),
      403,
      "42501",
      "Only the host, moderators and the owner can end the session",
    );
    refused(
      await anonClient().rpc("end_listening_session", { session_id: session.id }),
      401,
      "42501",
      "permission denied for function end_listening_session",
    );
    const ended = accepted(await host.client.rpc("end_listening_session", { session_id: session.id }));
    expect(ended.ended_at).not.toBeNull();
    refused(await play(host.client, session.id, posts.a, 0, true), 409, "PT409", "This session has ended");
    refused(await queue(member, session.id, posts.b), 409, "PT409", "This session has ended");
  });
});

describe("the queue and moments", () => {
  test("a member's post is a suggestion; an outsider, another room's post, a duplicate and a forged room are refused", async () => {
    const session = await gatedSession(posts.a);
    expect((await queue(member, session.id, posts.b)).data).toMatchObject({ status: "suggested", room_id: gated.id });
    refused(
      await queue(member, session.id, posts.b),
      409,
      "23505",
      'duplicate key value violates unique constraint "session_queue_one_per_post"',
    );
    refused(await queue(member, session.id, posts.open), 409, "23503", "That post isn't in this room");
    refused(
      await queue(outsider, session.id, posts.c),
      403,
      "42501",
      'new row violates row-level security policy for table "session_queue"',
    );
    const forged = await member.client
      .from("session_queue")
      .insert({ session_id: session.id, post_id: posts.c, added_by: member.id, room_id: open.id } as never)
      .select();
    refused(forged, 403, "42501", "permission denied for table session_queue");
    const accept = await member.client.from("session_queue").update({ status: "queued" }).eq("session_id", session.id).select();
    expect(accept).toMatchObject({ error: null, data: [] });
    const byHost = await host.client.from("session_queue").update({ status: "queued" }).eq("session_id", session.id).select("status");
    expect(byHost).toMatchObject({ error: null, data: [{ status: "queued" }] });
  });

  test("a member's 11th pending suggestion is refused with the limit in words; the host's entries are not suggestions", async () => {
    const session = await gatedSession();
    const extra = await adminQuery<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url) select $1, $2, 'extra ' || i, 'embed', 'https://vimeo.com/' || i from generate_series(1, 11) i returning id",
      [gated.id, member.id],
    );
    for (const post of extra.slice(0, 10)) expect((await queue(member, session.id, post.id)).error).toBeNull();
    refused(await queue(member, session.id, extra[10].id), 400, "23514", "You can suggest up to 10 posts at a time");
    expect((await queue(host, session.id, extra[10].id)).data).toMatchObject({ status: "queued" });
    await adminQuery("delete from public.posts where id = any($1::uuid[])", [extra.map((post) => post.id)]);
  });

  test("a moment during the session carries it; on a post the session is not playing it is refused with 409", async () => {
    const session = await gatedSession(posts.a);
    const stamped = await member.client
      .from("moments")
      .insert({ post_id: posts.a, author_id: member.id, at_seconds: 102, body: "live at 1:42", session_id: session.id })
      .select("session_id")
      .single();
    expect(stamped).toMatchObject({ error: null, data: { session_id: session.id } });
    const elsewhere = await member.client
      .from("moments")
      .insert({ post_id: posts.b, author_id: member.id, at_seconds: 1, body: "wrong post", session_id: session.id })
      .select()
      .single();
    refused(elsewhere, 409, "PT409", "That post isn't playing in the session any more");
  });

  test("who reads: anyone a public room's session, only members a gated room's", async () => {
    const openSession = (await adminQuery<{ id: string }>("select id from public.listening_sessions where room_id = $1", [open.id]))[0];
    const gatedOne = await gatedSession();
    for (const reader of [anonClient(), outsider.client]) {
      expect((await reader.from("listening_sessions").select("id").eq("id", openSession.id)).data).toEqual([{ id: openSession.id }]);
      expect((await reader.from("listening_sessions").select("id").eq("id", gatedOne.id)).data).toEqual([]);
      expect((await reader.from("session_queue").select("id").eq("session_id", gatedOne.id)).data).toEqual([]);
    }
    expect((await member.client.from("listening_sessions").select("id").eq("id", gatedOne.id)).data).toEqual([{ id: gatedOne.id }]);
    const write = await host.client.from("listening_sessions").update({ playing: true }).eq("id", gatedOne.id).select();
    refused(write, 403, "42501", "permission denied for table listening_sessions");
  });
});

// A listening session's channel end to end: the host's changes through /rest/v1 make the database
// broadcast on `session:{room id}` (event `session`, the row, per version; event `queue`, per queue
// change), and supabase-js clients joined to that private channel receive them — the room's members
// only, in a public room too. Nobody's client broadcast gets through (a forged playback message
// never arrives); members share presence; a removed member stops receiving at their next token.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { sessionTopic, type QueueChange, type SessionRow } from "../../lib/sessions/types";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonKey, apiUrl, roomEpoch, userJwt } from "../helpers/stack";

vi.setConfig({ testTimeout: 60_000 });

interface Received {
  event: string;
  payload: Record<string, unknown>;
}

let owner: TestUser, host: TestUser, listener: TestUser, outsider: TestUser;
let open: { id: string }, gated: { id: string };
let postA: string, postB: string;
const clients: SupabaseClient[] = [];

function realtimeClient(user?: TestUser): SupabaseClient {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(user ? { accessToken: async () => userJwt(user.id, user.email) } : {}),
  });
  clients.push(client);
  return client;
}

/** Joins the session's private channel as the session page does; resolves with the join's outcome and collects what arrives. */
async function join(user: TestUser | undefined, roomId: string, presenceKey?: string) {
  const client = realtimeClient(user);
  await client.realtime.setAuth();
  // The session's current topic, as the app learns it (it moves on when access narrows).
  const channel: RealtimeChannel = client.channel(sessionTopic(roomId, await roomEpoch(roomId)), {
    config: { private: true, broadcast: { ack: true }, ...(presenceKey ? { presence: { key: presenceKey } } : {}) },
  });
  const got: Received[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Received));
  channel.on("presence", { event: "sync" }, () => undefined);
  const first = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, error) => resolve({ status, error })),
  );
  return { client, channel, got, ...first };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sessions = (got: Received[]) => got.filter((m) => m.event === "session").map((m) => m.payload as unknown as SessionRow);
const queueChanges = (got: Received[]) => got.filter((m) => m.event === "queue").map((m) => m.payload as unknown as QueueChange);

async function liveSession(roomId: string, by: TestUser, postId: string): Promise<SessionRow> {
  await adminQuery("update public.listening_sessions set ended_at = greatest(now(), started_at) where room_id = $1 and ended_at is null", [
    roomId,
  ]);
  const { data, error } = await by.client.rpc("start_listening_session", { room_id: roomId, post_id: postId });
  if (error) throw error;
  return data as SessionRow;
}

async function play(sessionId: string, postId: string, position: number, playing: boolean): Promise<SessionRow> {
  const { data, error } = await host.client.rpc("set_session_playback", {
    session_id: sessionId,
    post_id: postId,
    position_seconds: position,
    playing,
  });
  if (error) throw error;
  return data as SessionRow;
}

beforeAll(async () => {
  [owner, host, listener, outsider] = await Promise.all(
    ["sc-owner", "sc-host", "sc-listener", "sc-outsider"].map((label) => signedInUser(label)),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, host.id, "moderator");
    await addMember(room.id, listener.id);
  }
  const post = async (roomId: string, title: string) =>
    (
      await adminQuery<{ id: string }>(
        "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, $3, 'embed', 'https://vimeo.com/1', 300) returning id",
        [roomId, host.id, title],
      )
    )[0].id;
  postA = await post(gated.id, "A");
  postB = await post(gated.id, "B");
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open?.id, gated?.id].filter(Boolean)]);
  await deleteUsers(owner, host, listener, outsider);
});

describe("the session's channel carries the host's changes", () => {
  test("a member receives one `session` message per playback change, in version order, with the row; a heartbeat sends none", async () => {
    const session = await liveSession(gated.id, host, postA);
    const room = await join(listener, gated.id);
    expect(room.status).toBe("SUBSCRIBED");

    await play(session.id, postA, 0, true);
    await host.client.rpc("session_heartbeat", { session_id: session.id });
    await play(session.id, postA, 61.5, true);
    const last = await play(session.id, postA, 61.5, false);
    await waitFor("three versions", () => sessions(room.got).length === 3);

    const versions = sessions(room.got);
    expect(versions.map((s) => [s.version, s.position_seconds, s.playing])).toEqual([
      [2, 0, true],
      [3, 61.5, true],
      [4, 61.5, false],
    ]);
    expect(versions[2]).toEqual({ ...last });
  });

  test("queue changes arrive as `queue` messages (INSERT, UPDATE, DELETE); next is the new version, then the DELETE", async () => {
    const session = await liveSession(gated.id, host, postA);
    const room = await join(listener, gated.id);
    const { data: entry, error } = await listener.client
      .from("session_queue")
      .insert({ session_id: session.id, post_id: postB, added_by: listener.id })
      .select("id")
      .single();
    expect(error).toBeNull();
    await host.client.from("session_queue").update({ status: "queued" }).eq("id", entry!.id);
    await host.client.rpc("play_next_in_session", { session_id: session.id, after_post_id: postA });
    await waitFor("three queue changes and the new version", () => queueChanges(room.got).length === 3 && sessions(room.got).length === 1);

    expect(queueChanges(room.got).map((c) => [c.operation, c.table, c.record?.status ?? null, c.old_record?.status ?? null])).toEqual([
      ["INSERT", "session_queue", "suggested", null],
      ["UPDATE", "session_queue", "queued", "suggested"],
      ["DELETE", "session_queue", null, "queued"],
    ]);
    expect(queueChanges(room.got)[0].record).toMatchObject({
      id: entry!.id,
      session_id: session.id,
      room_id: gated.id,
      post_id: postB,
      added_by: listener.id,
    });
    // The session first: a follower's page starts the post it holds ready before it redraws the queue.
    expect(room.got.map((m) => m.event).slice(-2)).toEqual(["session", "queue"]);
    expect(sessions(room.got)[0]).toMatchObject({ post_id: postB, position_seconds: 0, playing: true });
  });

  test("playing a queued post now: the new version, then the entry leaving the queue", async () => {
    const session = await liveSession(gated.id, host, postA);
    const { data: entry } = await host.client
      .from("session_queue")
      .insert({ session_id: session.id, post_id: postB, added_by: host.id })
      .select("id, status")
      .single();
    expect(entry?.status).toBe("queued");
    const room = await join(listener, gated.id);
    await play(session.id, postB, 0, true);
    await waitFor("the new version and the queue's change", () => queueChanges(room.got).length === 1 && sessions(room.got).length === 1);
    expect(room.got.map((m) => m.event)).toEqual(["session", "queue"]);
    expect(queueChanges(room.got)[0]).toMatchObject({ operation: "DELETE", old_record: { id: entry!.id } });
    expect(sessions(room.got)[0]).toMatchObject({ post_id: postB, playing: true });
  });
});

describe("who is on the channel", () => {
  test("a non-member's and anon's joins are refused and receive nothing — in a public room's session too", async () => {
    const session = await liveSession(gated.id, host, postA);
    const member = await join(listener, gated.id);
    const refused = await join(outsider, gated.id);
    const anon = await join(undefined, gated.id);
    const publicRefused = await join(outsider, open.id);
    expect(refused.status).toBe("CHANNEL_ERROR");
    expect(refused.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: session:${gated.id}`);
    expect(anon.status).toBe("CHANNEL_ERROR");
    expect(publicRefused.status).toBe("CHANNEL_ERROR");
    expect(publicRefused.error?.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: session:${open.id}`,
    );
    await play(session.id, postA, 5, true);
    await waitFor("the member receives it", () => sessions(member.got).length === 1);
    expect([refused.got, anon.got, publicRefused.got]).toEqual([[], [], []]);
  });

  test("a member's (even the host's) broadcast is refused: no ack, and a forged `session` never reaches the others", async () => {
    const session = await liveSession(gated.id, host, postA);
    const forger = await join(listener, gated.id);
    const hostPage = await join(host, gated.id);
    const other = await join(listener, gated.id);
    const forged = { ...session, version: 999, position_seconds: 250, playing: true };
    expect(await forger.channel.send({ type: "broadcast", event: "session", payload: forged }, { timeout: 1500 })).toBe("timed out");
    expect(await hostPage.channel.send({ type: "broadcast", event: "session", payload: forged }, { timeout: 1500 })).toBe("timed out");
    const rest = await fetch(
      `${apiUrl}/realtime/v1/api/broadcast/${encodeURIComponent(sessionTopic(gated.id))}/events/session?private=true`,
      {
        method: "POST",
        headers: { apikey: anonKey, Authorization: `Bearer ${userJwt(host.id, host.email)}`, "Content-Type": "application/json" },
        body: JSON.stringify(forged),
      },
    );
    expect(rest.status).toBe(403);
    await play(session.id, postA, 10, true);
    await waitFor("the real change", () => sessions(other.got).length === 1);
    expect(sessions(other.got).map((s) => s.version)).toEqual([2]);
    expect(other.got.some((m) => (m.payload as { version?: number }).version === 999)).toBe(false);
  });

  test("members share presence with each other", async () => {
    const a = await join(host, open.id, host.id);
    const b = await join(listener, open.id, listener.id);
    expect([a.status, b.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
    expect(await a.channel.track({ user_id: host.id, following: true, since: Date.now() })).toBe("ok");
    expect(await b.channel.track({ user_id: listener.id, following: true, since: Date.now() })).toBe("ok");
    await waitFor("each sees both", () =>
      [a, b].every((r) => Object.keys(r.channel.presenceState()).sort().join() === [host.id, listener.id].sort().join()),
    );
    expect(b.channel.presenceState()[host.id][0]).toMatchObject({ user_id: host.id, following: true });
  });

  test("a member removed from the room stops receiving at once: the channel moves on without them", async () => {
    const leaver = await signedInUser("sc-leaver");
    try {
      await addMember(gated.id, leaver.id);
      const session = await liveSession(gated.id, host, postA);
      const gone = await join(leaver, gated.id);
      const stays = await join(listener, gated.id);
      expect(gone.status).toBe("SUBSCRIBED");
      await play(session.id, postA, 1, true);
      await waitFor("both receive it", () => sessions(gone.got).length === 1 && sessions(stays.got).length === 1);

      await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [gated.id, leaver.id]);
      await waitFor(
        "both are told the channel moved",
        () => gone.got.some((m) => m.event === "access") && stays.got.some((m) => m.event === "access"),
      );
      const followed = await join(listener, gated.id);
      expect(followed.status).toBe("SUBSCRIBED");
      await play(session.id, postA, 2, true);
      await waitFor("the member who stays receives it", () => sessions(followed.got).length === 1);
      expect(sessions(gone.got)).toHaveLength(1);
      expect((await join(leaver, gated.id)).status).toBe("CHANNEL_ERROR");
    } finally {
      await deleteUsers(leaver);
    }
  });
});

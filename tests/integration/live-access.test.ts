// Live access ends when access ends, whatever the socket's client does. Raw supabase-js sockets that
// never leave politely: an anonymous one on a public room the owner then gates, a member the owner
// then removes, a member whose wallet is unlinked. Each hears that the room's channel moved on
// (`access`), and nothing of what the room says afterwards — not a post, a comment or the session —
// and cannot join the new topic; the members who may still read follow the move and hear on.
// (The topics and policies: supabase/migrations/*_live_access_ends.sql.)
import { randomUUID } from "node:crypto";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { roomTopic } from "../../lib/realtime/room-channel";
import { sessionTopic } from "../../lib/sessions/types";
import { adminQuery, insertAuthUsers, anonKey, apiUrl, userJwt } from "../helpers/stack.ts";

vi.setConfig({ testTimeout: 60_000 });

const people = ["owner", "member", "stayer"].map((name) => {
  const id = randomUUID();
  const email = `fx-live-access-${name}-${id.slice(0, 8)}@example.test`;
  return { id, email, jwt: userJwt(id, email) };
});
const [owner, member, stayer] = people;
const clients: SupabaseClient[] = [];
const rooms: string[] = [];

type Broadcast = { event: string; payload: Record<string, unknown> };

async function client(as: { jwt: string } | "anon"): Promise<SupabaseClient> {
  const made = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(as === "anon" ? {} : { accessToken: async () => as.jwt }),
  });
  await made.realtime.setAuth();
  clients.push(made);
  return made;
}

async function join(as: { jwt: string } | "anon", topic: string) {
  const channel: RealtimeChannel = (await client(as)).channel(topic, { config: { private: true } });
  const got: Broadcast[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Broadcast));
  const outcome = await new Promise<{ status: string }>((resolve) => channel.subscribe((status) => resolve({ status })));
  return { channel, got, ...outcome };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 800));
const events = (socket: { got: Broadcast[] }) => socket.got.map((message) => message.event);

async function room(visibility: "public" | "gated"): Promise<string> {
  const id = randomUUID();
  rooms.push(id);
  await adminQuery(`
    insert into public.rooms (id, slug, name, owner_id, visibility) values ('${id}', 'fx-access-${id.slice(0, 8)}', 'Access', '${owner.id}', '${visibility}');
    ${visibility === "gated" ? `insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('${id}', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');` : ""}
    insert into public.memberships (room_id, user_id, verified_at) values ('${id}', '${member.id}', now()), ('${id}', '${stayer.id}', now());`);
  return id;
}

/** Writes as the owner would (the triggers broadcast as they do for the app). */
const post = (roomId: string, title: string) =>
  adminQuery(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871')",
    [roomId, owner.id, title],
  );
const epochOf = async (roomId: string) =>
  (await adminQuery<{ access_epoch: number }>("select access_epoch from public.rooms where id = $1", [roomId]))[0].access_epoch;

beforeAll(async () => {
  await insertAuthUsers(people);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [rooms]);
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [people.map((p) => p.id)]);
});

describe("when who may read a room narrows, sockets that may not read it any more hear nothing more", () => {
  test("an anonymous socket on a public room the owner gates: told the channel moved, then nothing; it cannot join the new topic", async () => {
    const roomId = await room("public");
    const anon = await join("anon", roomTopic(roomId));
    const memberSocket = await join(member, roomTopic(roomId));
    expect([anon.status, memberSocket.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
    await post(roomId, "Before the gate");
    await waitFor("both hear the post", () => events(anon).includes("posts") && events(memberSocket).includes("posts"));

    await adminQuery(`
      update public.rooms set visibility = 'gated' where id = '${roomId}';
      insert into public.room_gates (room_id, chain_id, contract_address, standard) values ('${roomId}', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');`);
    expect(await epochOf(roomId)).toBe(1);
    await waitFor("the anonymous socket is told", () => events(anon).includes("access"));
    expect(anon.got.find((message) => message.event === "access")?.payload).toMatchObject({ epoch: 1 });

    // The member follows the move; the anonymous socket stays where it was (a client that never leaves).
    const moved = await join(member, roomTopic(roomId, 1));
    expect(moved.status).toBe("SUBSCRIBED");
    await post(roomId, "Members only now");
    await waitFor("the member hears it on the new topic", () => events(moved).includes("posts"));
    await settle();
    expect(anon.got.filter((message) => message.event === "posts")).toHaveLength(1);
    expect(JSON.stringify(anon.got)).not.toContain("Members only now");
    expect(JSON.stringify(memberSocket.got)).not.toContain("Members only now");

    expect((await join("anon", roomTopic(roomId, 1))).status).toBe("CHANNEL_ERROR");
    expect((await join("anon", roomTopic(roomId))).status).toBe("CHANNEL_ERROR");
  });

  test("a removed member's socket hears why, then nothing of the room or its session; the member who stays follows and hears on", async () => {
    const roomId = await room("gated");
    const removed = await join(member, roomTopic(roomId));
    const removedSession = await join(member, sessionTopic(roomId));
    const stays = await join(stayer, roomTopic(roomId));
    expect([removed.status, removedSession.status, stays.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED", "SUBSCRIBED"]);

    await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [roomId, member.id]);
    expect(await epochOf(roomId)).toBe(1);
    await waitFor(
      "the removed member's sockets are told",
      () => events(removed).includes("access") && events(removedSession).includes("access"),
    );
    // Their own page learns why first: the membership's end, then the move.
    expect(events(removed)).toEqual(["memberships", "access"]);

    const followed = await join(stayer, roomTopic(roomId, 1));
    expect(followed.status).toBe("SUBSCRIBED");
    await post(roomId, "After you left");
    await adminQuery("insert into public.listening_sessions (room_id, started_by, host_id) values ($1, $2, $2)", [roomId, owner.id]);
    await waitFor("the member who stays hears the post", () => events(followed).includes("posts"));
    await settle();
    expect(events(removed)).toEqual(["memberships", "access"]);
    expect(events(removedSession)).toEqual(["access"]);
    expect((await join(member, roomTopic(roomId, 1))).status).toBe("CHANNEL_ERROR");
    expect((await join(member, sessionTopic(roomId, 1))).status).toBe("CHANNEL_ERROR");
  });

  test("unlinking the wallet that let a member in ends their live access too", async () => {
    const roomId = await room("gated");
    const wallet = `0x${randomUUID().replace(/-/g, "").slice(0, 20)}${"0".repeat(20)}`;
    await adminQuery("insert into public.wallets (address, user_id) values ($1, $2)", [wallet, member.id]);
    await adminQuery("update public.memberships set verified_wallet = $1 where room_id = $2 and user_id = $3", [wallet, roomId, member.id]);
    const socket = await join(member, roomTopic(roomId));
    expect(socket.status).toBe("SUBSCRIBED");
    await adminQuery("delete from public.wallets where address = $1", [wallet]);
    await waitFor("told", () => events(socket).includes("access"));
    await post(roomId, "Holders only");
    await settle();
    expect(JSON.stringify(socket.got)).not.toContain("Holders only");
  });

  test("widening access moves nothing: a member joining, or a gated room made public, keeps the topic", async () => {
    const roomId = await room("gated");
    const socket = await join(stayer, roomTopic(roomId));
    await adminQuery(`
      update public.rooms set visibility = 'public' where id = '${roomId}';
      delete from public.room_gates where room_id = '${roomId}';`);
    await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [roomId, member.id]);
    expect(await epochOf(roomId)).toBe(0);
    await post(roomId, "Open again");
    await waitFor("heard on the same topic", () => events(socket).includes("posts"));
    expect(events(socket)).not.toContain("access");
  });
});

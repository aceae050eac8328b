// A room's Realtime channel, `room:{room id}`, as the app uses it: a private channel that
// supabase-js joins, which Realtime lets in by the policies on realtime.messages
// (supabase/migrations/*_room_channel_policies.sql), carrying what the database sends
// (realtime.send / realtime.broadcast_changes) and members' presence — and nothing a client broadcasts.
import { randomUUID } from "node:crypto";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { adminQuery, insertAuthUsers, anonKey, apiUrl, userJwt } from "../helpers/stack.ts";

vi.setConfig({ testTimeout: 60_000 });

const users = ["owner", "member", "outsider"].map((name) => {
  const id = randomUUID();
  const email = `fx-room-channel-${name}-${id.slice(0, 8)}@example.test`;
  return { id, email, jwt: userJwt(id, email) };
});
const [owner, member, outsider] = users;
const publicRoom = randomUUID();
const gatedRoom = randomUUID();
const clients: SupabaseClient[] = [];

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

/** The room's private channel, as the app joins it; resolves with the join's outcome and what arrives. */
async function join(as: { jwt: string } | "anon", roomId: string, presenceKey?: string) {
  const channel: RealtimeChannel = (await client(as)).channel(`room:${roomId}`, {
    config: { private: true, broadcast: { ack: true }, ...(presenceKey ? { presence: { key: presenceKey } } : {}) },
  });
  const got: Broadcast[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Broadcast));
  channel.on("presence", { event: "sync" }, () => undefined);
  const outcome = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, error) => resolve({ status, error })),
  );
  return { channel, got, ...outcome };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What a trigger on the room's tables does: a private message on the room's topic, in the writing transaction. */
async function sendFromDatabase(roomId: string, event: string, payload: object): Promise<void> {
  await adminQuery("select realtime.send($1::jsonb, $2, $3)", [JSON.stringify(payload), event, `room:${roomId}`]);
}

beforeAll(async () => {
  await insertAuthUsers(users);
  // one statement, one transaction: a gated room and its gate are checked together at commit
  await adminQuery(`
    insert into public.rooms (id, slug, name, owner_id, visibility) values
      ('${publicRoom}', 'fx-open-${publicRoom.slice(0, 8)}', 'Open', '${owner.id}', 'public'),
      ('${gatedRoom}', 'fx-gated-${gatedRoom.slice(0, 8)}', 'Gated', '${owner.id}', 'gated');
    insert into public.room_gates (room_id, chain_id, contract_address, standard)
      values ('${gatedRoom}', 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721');
    insert into public.memberships (room_id, user_id, verified_at) values ('${gatedRoom}', '${member.id}', now());`);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[publicRoom, gatedRoom]]);
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [users.map((user) => user.id)]);
});

describe("a room's channel", () => {
  test("a member of a gated room joins its private channel and receives what the database sends", async () => {
    const room = await join(member, gatedRoom);
    expect(room.status).toBe("SUBSCRIBED");
    await sendFromDatabase(gatedRoom, "INSERT", { table: "moments", record: { body: "at 1:42" } });
    await waitFor("the member receives it", () => room.got.length === 1);
    expect(room.got[0]).toMatchObject({
      event: "INSERT",
      payload: { table: "moments", record: { body: "at 1:42" }, id: expect.any(String) },
    });
  });

  test("a non-member's join of a gated room's channel is refused, and nothing reaches them", async () => {
    const insider = await join(member, gatedRoom);
    const refused = await join(outsider, gatedRoom);
    expect(refused.status).toBe("CHANNEL_ERROR");
    expect(refused.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: room:${gatedRoom}`);
    const anon = await join("anon", gatedRoom);
    expect(anon.status).toBe("CHANNEL_ERROR");
    await sendFromDatabase(gatedRoom, "UPDATE", { secret: true });
    await waitFor("the member receives it", () => insider.got.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(refused.got).toEqual([]);
    expect(anon.got).toEqual([]);
  });

  test("anyone, signed in or not, receives on a public room's channel", async () => {
    const anon = await join("anon", publicRoom);
    const visitor = await join(outsider, publicRoom);
    expect([anon.status, visitor.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
    await sendFromDatabase(publicRoom, "INSERT", { table: "posts" });
    await waitFor("both receive it", () => anon.got.length === 1 && visitor.got.length === 1);
  });

  test("a client's broadcast on a room's channel is refused: no ack, nobody hears it", async () => {
    const sender = await join(owner, publicRoom);
    const listener = await join(member, gatedRoom);
    const gatedSender = await join(member, gatedRoom);
    expect(await sender.channel.send({ type: "broadcast", event: "INSERT", payload: { forged: true } }, { timeout: 1500 })).toBe(
      "timed out",
    );
    expect(await gatedSender.channel.send({ type: "broadcast", event: "INSERT", payload: { forged: true } }, { timeout: 1500 })).toBe(
      "timed out",
    );
    // the REST broadcast refuses it too
    const response = await fetch(
      `${apiUrl}/realtime/v1/api/broadcast/${encodeURIComponent(`room:${gatedRoom}`)}/events/INSERT?private=true`,
      {
        method: "POST",
        headers: { apikey: anonKey, Authorization: `Bearer ${member.jwt}`, "Content-Type": "application/json" },
        body: JSON.stringify({ forged: true }),
      },
    );
    expect(response.status).toBe(403);
    await sendFromDatabase(gatedRoom, "DELETE", { marker: true });
    await waitFor("the database's message", () => listener.got.length === 1);
    expect(listener.got.map((m) => m.event)).toEqual(["DELETE"]);
  });

  test("members share presence; a signed-in visitor of a public room sees it but cannot share their own", async () => {
    const a = await join(owner, publicRoom, "owner");
    const visitor = await join(outsider, publicRoom, "visitor");
    expect(await a.channel.track({ playing: "post-1", at: 12 })).toBe("ok");
    await waitFor("the visitor sees the member", () => visitor.channel.presenceState().owner?.length === 1);
    await visitor.channel.track({ playing: "post-2" });
    await new Promise((r) => setTimeout(r, 500));
    expect(Object.keys(a.channel.presenceState())).toEqual(["owner"]);
  });
});

// Realtime conformance: the Phoenix-channel protocol as realtime-js speaks it (vsn 1.0.0 and
// 2.0.0), broadcast, presence, private channels, the REST broadcast API and bad input.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import type { ServerContext } from "../server/context.ts";
import { createRealtimeRoute } from "../server/realtime/index.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { anonKey, apiUrl, publishableKey } from "./helpers/stack.ts";
import {
  RawSocket,
  type TestUser,
  type Vsn,
  closeClients,
  createUsers,
  deleteUsers,
  realtimeClient,
  sql,
  subscribe,
  userToken,
  waitFor,
} from "./realtime-helpers.ts";

// change feeds and joins wait on a busy API and replication stream: generous ceilings, never a speed test
vi.setConfig({ testTimeout: 120_000 });

let users: TestUser[] = [];
const sockets: RawSocket[] = [];
/** A presence as the app tracked it, without the ref the server adds. */
function withoutRef(presence: Record<string, unknown>): Record<string, unknown> {
  const tracked = { ...presence };
  delete tracked.presence_ref;
  return tracked;
}
async function raw(vsn?: string, apikey?: string) {
  const socket = await RawSocket.open(vsn, apikey);
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  users = await createUsers("fx-rt", 2);
  // Private channels: a user may read and write `fx-rt-private:<own id>`; `fx-rt-readonly:*` is readable by anyone signed in.
  await sql(`
    create policy fx_rt_read on realtime.messages for select to authenticated
      using (realtime.topic() = 'fx-rt-private:' || auth.uid()::text or realtime.topic() like 'fx-rt-readonly:%');
    create policy fx_rt_write on realtime.messages for insert to authenticated
      with check (realtime.topic() = 'fx-rt-private:' || auth.uid()::text);`);
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await closeClients();
  await sql("drop policy if exists fx_rt_read on realtime.messages; drop policy if exists fx_rt_write on realtime.messages;");
  await deleteUsers(users);
});

describe("Phoenix protocol", () => {
  test("heartbeat on the phoenix topic is answered with an ok reply (vsn 2.0.0 arrays)", async () => {
    const socket = await raw("2.0.0");
    socket.send(JSON.stringify([null, "7", "phoenix", "heartbeat", {}]));
    expect(await socket.next("heartbeat reply", (f: unknown[]) => f[1] === "7")).toEqual([
      null,
      "7",
      "phoenix",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
  });

  test("vsn 1.0.0 speaks JSON objects", async () => {
    const socket = await raw("1.0.0");
    socket.send(JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "3" }));
    expect(await socket.next("heartbeat reply", (f: { ref: string }) => f.ref === "3")).toEqual({
      join_ref: null,
      ref: "3",
      topic: "phoenix",
      event: "phx_reply",
      payload: { status: "ok", response: {} },
    });
    socket.send(
      JSON.stringify({
        topic: "realtime:fx-rt-v1",
        event: "phx_join",
        payload: { config: { broadcast: { self: true } } },
        ref: "4",
        join_ref: "4",
      }),
    );
    expect(await socket.next("join reply", (f: { ref: string }) => f.ref === "4")).toEqual({
      join_ref: "4",
      ref: "4",
      topic: "realtime:fx-rt-v1",
      event: "phx_reply",
      payload: { status: "ok", response: { postgres_changes: [] } },
    });
  });

  test("join replies ok with the postgres_changes bindings and their ids; presence_state follows when presence is enabled", async () => {
    const socket = await raw("2.0.0");
    const config = { broadcast: { self: false, ack: false }, presence: { key: "me", enabled: true }, postgres_changes: [], private: false };
    socket.send(JSON.stringify(["1", "1", "realtime:fx-rt-join", "phx_join", { config, access_token: anonKey }]));
    expect(await socket.next("join reply", (f: unknown[]) => f[1] === "1")).toEqual([
      "1",
      "1",
      "realtime:fx-rt-join",
      "phx_reply",
      { status: "ok", response: { postgres_changes: [] } },
    ]);
    expect(await socket.next("presence_state", (f: unknown[]) => f[3] === "presence_state")).toEqual([
      "1",
      null,
      "realtime:fx-rt-join",
      "presence_state",
      {},
    ]);
  });

  test("phx_leave is acknowledged and the channel closes", async () => {
    const socket = await raw("2.0.0");
    socket.send(JSON.stringify(["5", "5", "realtime:fx-rt-leave", "phx_join", { config: {} }]));
    await socket.next("join reply", (f: unknown[]) => f[1] === "5");
    socket.send(JSON.stringify(["5", "6", "realtime:fx-rt-leave", "phx_leave", {}]));
    expect(await socket.next("leave reply", (f: unknown[]) => f[1] === "6")).toEqual([
      "5",
      "6",
      "realtime:fx-rt-leave",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
    expect(await socket.next("phx_close", (f: unknown[]) => f[3] === "phx_close")).toEqual([
      "5",
      "5",
      "realtime:fx-rt-leave",
      "phx_close",
      {},
    ]);
  });

  test("topics outside realtime:* and events for channels not joined get Phoenix's unmatched topic reply", async () => {
    const socket = await raw("2.0.0");
    socket.send(JSON.stringify(["1", "1", "rooms:lobby", "phx_join", {}]));
    expect(await socket.next("join reply", (f: unknown[]) => f[1] === "1")).toEqual([
      null,
      "1",
      "rooms:lobby",
      "phx_reply",
      { status: "error", response: { reason: "unmatched topic" } },
    ]);
    socket.send(JSON.stringify(["9", "2", "realtime:never-joined", "broadcast", { type: "broadcast", event: "x", payload: {} }]));
    expect(await socket.next("reply", (f: unknown[]) => f[1] === "2")).toEqual([
      null,
      "2",
      "realtime:never-joined",
      "phx_reply",
      { status: "error", response: { reason: "unmatched topic" } },
    ]);
  });

  test("an empty topic name is refused with Realtime's TopicNameRequired", async () => {
    const socket = await raw("2.0.0");
    socket.send(JSON.stringify(["1", "1", "realtime:", "phx_join", { config: {} }]));
    expect(await socket.next("join reply", (f: unknown[]) => f[1] === "1")).toEqual([
      "1",
      "1",
      "realtime:",
      "phx_reply",
      { status: "error", response: { reason: "TopicNameRequired: You must provide a topic name" } },
    ]);
  });
});

describe("bad input", () => {
  test.each([
    ["not JSON", "{oops", "frame is not valid JSON"],
    [
      "an object under vsn 2.0.0",
      JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "1" }),
      "expected [join_ref, ref, topic, event, payload]",
    ],
    ["a non-string topic", JSON.stringify([null, "1", 42, "heartbeat", {}]), "topic must be a string"],
  ])("a malformed frame (%s) closes only that socket with 1007 and the reason", async (_name, frame, reason) => {
    const bad = await raw("2.0.0");
    const good = await raw("2.0.0");
    bad.send(frame);
    expect(await waitFor("close", () => bad.closed)).toEqual({ code: 1007, reason: `Invalid frame: ${reason}` });
    good.send(JSON.stringify([null, "1", "phoenix", "heartbeat", {}]));
    expect(await good.next("heartbeat reply", (f: unknown[]) => f[1] === "1")).toEqual([
      null,
      "1",
      "phoenix",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
  });

  test("a truncated binary broadcast frame closes the socket with 1007", async () => {
    const bad = await raw("2.0.0");
    bad.send(Buffer.from([3, 10, 10, 10]));
    expect(await waitFor("close", () => bad.closed)).toEqual({ code: 1007, reason: "Invalid frame: unsupported binary frame" });
  });

  test("more than 100 channels on one socket are refused with Realtime's ChannelRateLimitReached", async () => {
    const socket = await raw("2.0.0");
    for (let i = 1; i <= 101; i++)
      socket.send(JSON.stringify([String(i), String(i), `realtime:fx-rt-many-${i}`, "phx_join", { config: {} }]));
    expect(await socket.next("101st join reply", (f: unknown[]) => f[1] === "101")).toEqual([
      "101",
      "101",
      "realtime:fx-rt-many-101",
      "phx_reply",
      { status: "error", response: { reason: "ChannelRateLimitReached: Too many channels" } },
    ]);
    expect(
      socket.json().filter((f) => (f as unknown[])[3] === "phx_reply" && ((f as unknown[])[4] as { status: string }).status === "ok"),
    ).toHaveLength(100);
  });

  test("a broadcast payload that is not an object is forwarded as sent", async () => {
    const [a, b] = [await raw("2.0.0"), await raw("2.0.0")];
    for (const socket of [a, b]) socket.send(JSON.stringify(["1", "1", "realtime:fx-rt-odd", "phx_join", { config: {} }]));
    await a.next("join", (f: unknown[]) => f[1] === "1");
    await b.next("join", (f: unknown[]) => f[1] === "1");
    a.send(JSON.stringify(["1", "2", "realtime:fx-rt-odd", "broadcast", "just a string"]));
    expect(await b.next("broadcast", (f: unknown[]) => f[3] === "broadcast")).toEqual([
      "1",
      null,
      "realtime:fx-rt-odd",
      "broadcast",
      "just a string",
    ]);
  });

  test("an unsupported protocol version or a missing apikey is refused at the upgrade", async () => {
    await expect(RawSocket.open("3.0.0")).rejects.toThrow("Unexpected server response: 403");
    await expect(RawSocket.open("2.0.0", "")).rejects.toThrow("Unexpected server response: 401");
    await expect(RawSocket.open("2.0.0", "not-a-key")).rejects.toThrow("Unexpected server response: 401");
  });

  test.each([
    ["a token that is not a JWT", "garbage", "MalformedJWT: The token provided is not a valid JWT"],
    [
      "a token signed with another secret",
      signHs256({ role: "authenticated", exp: 4_000_000_000 }, "another-secret-another-secret-another-secret"),
      "JwtSignatureError: Failed to validate JWT signature",
    ],
    ["a token without role and exp", signHs256({ sub: "x" }), "InvalidJWTToken: Fields `role` and `exp` are required in JWT"],
  ])("joining with %s is refused with Realtime's reason", async (_name, token, reason) => {
    const socket = await raw("2.0.0");
    socket.send(JSON.stringify(["1", "1", "realtime:fx-rt-token", "phx_join", { config: {}, access_token: token }]));
    expect(await socket.next("join reply", (f: unknown[]) => f[1] === "1")).toEqual([
      "1",
      "1",
      "realtime:fx-rt-token",
      "phx_reply",
      { status: "error", response: { reason } },
    ]);
  });

  test("an expired token is refused, saying how long ago it expired", async () => {
    const socket = await raw("2.0.0");
    const expired = signHs256({ role: "authenticated", exp: Math.floor(Date.now() / 1000) - 100 });
    socket.send(JSON.stringify(["1", "1", "realtime:fx-rt-token", "phx_join", { config: {}, access_token: expired }]));
    const reply = await socket.next<[string, string, string, string, { status: string; response: { reason: string } }]>(
      "join reply",
      (f) => f[1] === "1",
    );
    expect(reply[4].status).toBe("error");
    expect(reply[4].response.reason).toMatch(/^InvalidJWTToken: Token has expired 1\d\d seconds ago$/);
  });

  test("a REST broadcast with missing fields answers 422 with the fields' errors", async () => {
    const response = await fetch(`${apiUrl}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({
        messages: [
          { topic: "t", event: "e", payload: {} },
          { event: "e", payload: {} },
        ],
      }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ errors: { messages: [{}, { topic: ["can't be blank"] }] } });
    const empty = await fetch(`${apiUrl}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: anonKey, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toEqual({ errors: { messages: ["can't be blank"] } });
  });
});

describe.each<Vsn>(["2.0.0", "1.0.0"])("broadcast and presence through supabase-js (vsn %s)", (vsn) => {
  test("broadcast reaches the other subscribers; the sender only with self; ack resolves the send", async () => {
    const topic = `fx-rt-bc-${vsn}`;
    const sender = (await realtimeClient("anon", vsn)).channel(topic, { config: { broadcast: { ack: true } } });
    const selfSender = (await realtimeClient("anon", vsn)).channel(topic, { config: { broadcast: { self: true } } });
    const receiver = (await realtimeClient("anon", vsn)).channel(topic);
    const got = { sender: [] as unknown[], selfSender: [] as unknown[], receiver: [] as unknown[] };
    sender.on("broadcast", { event: "cursor" }, (m) => got.sender.push(m));
    selfSender.on("broadcast", { event: "cursor" }, (m) => got.selfSender.push(m));
    receiver.on("broadcast", { event: "cursor" }, (m) => got.receiver.push(m));
    for (const channel of [sender, selfSender, receiver]) expect((await subscribe(channel)).status).toBe("SUBSCRIBED");

    expect(await sender.send({ type: "broadcast", event: "cursor", payload: { x: 1, label: "né ✓" } })).toBe("ok");
    await waitFor("receiver gets the first broadcast", () => got.receiver.length === 1);
    await selfSender.send({ type: "broadcast", event: "cursor", payload: { x: 2 } });
    await waitFor("second broadcast everywhere", () => got.selfSender.length === 2 && got.receiver.length === 2 && got.sender.length === 1);
    expect(got.receiver).toEqual([
      { type: "broadcast", event: "cursor", payload: { x: 1, label: "né ✓" } },
      { type: "broadcast", event: "cursor", payload: { x: 2 } },
    ]);
    // `self` hears its own message; without it, the sender hears only the others'
    expect(got.selfSender).toEqual(got.receiver);
    expect(got.sender).toEqual([{ type: "broadcast", event: "cursor", payload: { x: 2 } }]);
  });

  test("presence: presence_state on join, join and leave diffs on track, untrack and leave", async () => {
    const topic = `fx-rt-presence-${vsn}`;
    const watcher = (await realtimeClient("anon", vsn)).channel(topic, { config: { presence: { key: "watcher" } } });
    const events: Array<[string, string, unknown[]]> = [];
    watcher
      .on("presence", { event: "join" }, ({ key, newPresences }) => events.push(["join", key, newPresences.map(withoutRef)]))
      .on("presence", { event: "leave" }, ({ key, leftPresences }) => events.push(["leave", key, leftPresences.map(withoutRef)]));
    expect((await subscribe(watcher)).status).toBe("SUBSCRIBED");
    const visitor = (await realtimeClient("anon", vsn)).channel(topic, { config: { presence: { key: "visitor" } } });
    expect((await subscribe(visitor)).status).toBe("SUBSCRIBED");

    expect(await visitor.track({ status: "online" })).toBe("ok");
    await waitFor("visitor in watcher's state", () => watcher.presenceState().visitor?.length === 1);
    expect(watcher.presenceState().visitor[0]).toMatchObject({ status: "online", presence_ref: expect.any(String) });
    expect(await visitor.track({ status: "away" })).toBe("ok");
    await waitFor("updated meta", () => (watcher.presenceState().visitor?.[0] as { status?: string } | undefined)?.status === "away");
    expect(await visitor.untrack()).toBe("ok");
    await waitFor("visitor gone", () => watcher.presenceState().visitor === undefined);
    expect(await visitor.track({ status: "back" })).toBe("ok");
    await waitFor("visitor back", () => watcher.presenceState().visitor?.length === 1);
    await visitor.unsubscribe();
    await waitFor("visitor left with its channel", () => watcher.presenceState().visitor === undefined);
    expect(events).toEqual([
      ["join", "visitor", [{ status: "online" }]],
      ["join", "visitor", [{ status: "away" }]],
      ["leave", "visitor", [{ status: "online" }]],
      ["leave", "visitor", [{ status: "away" }]],
      ["join", "visitor", [{ status: "back" }]],
      ["leave", "visitor", [{ status: "back" }]],
    ]);
  });
});

describe("broadcast across protocol versions and REST", () => {
  test("a 2.0.0 binary broadcast reaches a 1.0.0 client as JSON, and back", async () => {
    const v2 = (await realtimeClient("anon", "2.0.0")).channel("fx-rt-mixed");
    const v1 = (await realtimeClient("anon", "1.0.0")).channel("fx-rt-mixed");
    const got: { v1: unknown[]; v2: unknown[] } = { v1: [], v2: [] };
    v2.on("broadcast", { event: "*" }, (m) => got.v2.push(m));
    v1.on("broadcast", { event: "*" }, (m) => got.v1.push(m));
    expect((await subscribe(v2)).status).toBe("SUBSCRIBED");
    expect((await subscribe(v1)).status).toBe("SUBSCRIBED");
    await v2.send({ type: "broadcast", event: "from-v2", payload: { n: 2 } });
    await v1.send({ type: "broadcast", event: "from-v1", payload: { n: 1 } });
    await waitFor("both", () => got.v1.length === 1 && got.v2.length === 1);
    expect(got.v1).toEqual([{ type: "broadcast", event: "from-v2", payload: { n: 2 } }]);
    expect(got.v2).toEqual([{ type: "broadcast", event: "from-v1", payload: { n: 1 } }]);
  });

  test("httpSend (POST /api/broadcast/:topic/events/:event) answers 202 and reaches subscribers, JSON and binary", async () => {
    const receiver = (await realtimeClient("anon")).channel("fx-rt-rest");
    const got: unknown[] = [];
    receiver.on("broadcast", { event: "*" }, (m) => got.push(m));
    expect((await subscribe(receiver)).status).toBe("SUBSCRIBED");
    const sender = (await realtimeClient("service")).channel("fx-rt-rest");
    expect(await sender.httpSend("note", { text: "hello" })).toEqual({ success: true });
    expect(await sender.httpSend("bytes", new Uint8Array([1, 2, 3]))).toEqual({ success: true });
    await waitFor("two REST broadcasts", () => got.length === 2);
    expect(got[0]).toEqual({ type: "broadcast", event: "note", payload: { text: "hello" } });
    const binary = got[1] as { event: string; payload: ArrayBuffer };
    expect(binary.event).toBe("bytes");
    expect([...new Uint8Array(binary.payload)]).toEqual([1, 2, 3]);
  });

  test("send() before subscribing falls back to the REST batch endpoint", async () => {
    const receiver = (await realtimeClient("anon")).channel("fx-rt-fallback");
    const got: unknown[] = [];
    receiver.on("broadcast", { event: "ping" }, (m) => got.push(m));
    expect((await subscribe(receiver)).status).toBe("SUBSCRIBED");
    const unsubscribed = (await realtimeClient("anon")).channel("fx-rt-fallback");
    expect(await unsubscribed.send({ type: "broadcast", event: "ping", payload: { via: "rest" } })).toBe("ok");
    await waitFor("REST fallback broadcast", () => got.length === 1);
    expect(got).toEqual([{ type: "broadcast", event: "ping", payload: { via: "rest" } }]);
  });
});

describe("private channels: realtime.messages policies decide", () => {
  const privateTopic = (user: TestUser) => `fx-rt-private:${user.id}`;

  test("a user joins their own private channel; another user and anon are refused with Realtime's reason", async () => {
    const [alice, bob] = users;
    const own = (await realtimeClient(alice)).channel(privateTopic(alice), { config: { private: true } });
    expect((await subscribe(own)).status).toBe("SUBSCRIBED");
    const intruder = (await realtimeClient(bob)).channel(privateTopic(alice), { config: { private: true } });
    const refused = await subscribe(intruder);
    expect(refused.status).toBe("CHANNEL_ERROR");
    expect(refused.error?.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${privateTopic(alice)}`,
    );
    await intruder.unsubscribe();
    const anon = (await realtimeClient("anon")).channel(privateTopic(alice), { config: { private: true } });
    expect((await subscribe(anon)).error?.message).toBe(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${privateTopic(alice)}`,
    );
    await anon.unsubscribe();
    // the public channel of the same name is a different topic
    const publicTwin = (await realtimeClient(bob)).channel(privateTopic(alice));
    expect((await subscribe(publicTwin)).status).toBe("SUBSCRIBED");
  });

  test("broadcasts need the write policy; readers without it are heard by no one", async () => {
    const [alice, bob] = users;
    const topic = "fx-rt-readonly:room";
    const reader = (await realtimeClient(bob)).channel(topic, { config: { private: true, broadcast: { ack: true } } });
    const listener = (await realtimeClient(alice)).channel(topic, { config: { private: true } });
    const heard: unknown[] = [];
    listener.on("broadcast", { event: "*" }, (m) => heard.push(m));
    expect((await subscribe(reader)).status).toBe("SUBSCRIBED");
    expect((await subscribe(listener)).status).toBe("SUBSCRIBED");
    // no write policy for this topic: Realtime drops the message without an ack
    expect(await reader.send({ type: "broadcast", event: "shout", payload: {} }, { timeout: 1000 })).toBe("timed out");
    // the REST API refuses it too
    const response = await fetch(`${apiUrl}/realtime/v1/api/broadcast/${encodeURIComponent(topic)}/events/shout?private=true`, {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${bob.token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "Unauthorized" });
    // alice may write to her own private topic and hears herself only with self
    const own = (await realtimeClient(alice)).channel(privateTopic(alice), {
      config: { private: true, broadcast: { self: true, ack: true } },
    });
    const mine: unknown[] = [];
    own.on("broadcast", { event: "*" }, (m) => mine.push(m));
    expect((await subscribe(own)).status).toBe("SUBSCRIBED");
    expect(await own.send({ type: "broadcast", event: "note", payload: { ok: true } })).toBe("ok");
    await waitFor("own private broadcast", () => mine.length === 1);
    expect(heard).toEqual([]);
  });
});

describe("presence on a private channel", () => {
  test("members allowed by the policies see each other's presence", async () => {
    const [alice] = users;
    const topic = `fx-rt-private:${alice.id}`;
    const phone = (await realtimeClient(alice)).channel(topic, { config: { private: true, presence: { key: "phone" } } });
    const laptop = (await realtimeClient(alice)).channel(topic, { config: { private: true, presence: { key: "laptop" } } });
    phone.on("presence", { event: "sync" }, () => undefined);
    laptop.on("presence", { event: "sync" }, () => undefined);
    expect((await subscribe(phone)).status).toBe("SUBSCRIBED");
    expect((await subscribe(laptop)).status).toBe("SUBSCRIBED");
    expect(await phone.track({ playing: "track-1" })).toBe("ok");
    await waitFor("laptop sees the phone", () => laptop.presenceState().phone?.length === 1);
    expect(laptop.presenceState().phone[0]).toMatchObject({ playing: "track-1" });
  });
});

describe("access_token updates", () => {
  test("a new valid token keeps the channel; an expired one closes it with a system error", async () => {
    const [alice] = users;
    const session = { token: alice.token };
    const client = await realtimeClient(session);
    const channel = client.channel("fx-rt-token-refresh");
    const system: unknown[] = [];
    const statuses: string[] = [];
    const heard: unknown[] = [];
    channel.on("system", {}, (m) => system.push(m)).on("broadcast", { event: "*" }, (m) => heard.push(m));
    await new Promise<void>((resolve) =>
      channel.subscribe((status) => {
        statuses.push(status);
        if (status === "SUBSCRIBED") resolve();
      }),
    );
    // a refreshed token: the channel carries on
    session.token = userToken(alice.id, alice.email, 600);
    await client.realtime.setAuth();
    const other = (await realtimeClient("anon")).channel("fx-rt-token-refresh");
    expect((await subscribe(other)).status).toBe("SUBSCRIBED");
    await other.send({ type: "broadcast", event: "still-there", payload: {} });
    await waitFor("broadcast after refresh", () => heard.length === 1);
    // an expired token: Realtime shuts the channel down
    session.token = signHs256({ sub: alice.id, role: "authenticated", exp: Math.floor(Date.now() / 1000) - 5 });
    await client.realtime.setAuth();
    await waitFor("channel closed", () => statuses.includes("CLOSED"));
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({ extension: "system", status: "error", channel: "fx-rt-token-refresh" });
    expect((system[0] as { message: string }).message).toMatch(/^Token has expired \d+ seconds ago$/);
  });
});

test("a channel whose token runs out is shut down at expiry with a system error", async () => {
  const [alice] = users;
  // A short-lived token, so the test is short; on a busy machine it may run out before the join
  // is through, and then the join is tried again with a longer one.
  let system: Array<{ extension: string; status: string; message: string }> = [];
  let statuses: string[] = [];
  for (let lifetimeSeconds = 3; ; lifetimeSeconds *= 2) {
    const client = await realtimeClient({ token: userToken(alice.id, alice.email, lifetimeSeconds) });
    const channel = client.channel("fx-rt-expiring");
    system = [];
    statuses = [];
    channel.on("system", {}, (m) => system.push(m));
    const joined = await new Promise<string>((resolve) =>
      channel.subscribe((status) => {
        statuses.push(status);
        if (status !== "CLOSED") resolve(status);
      }),
    );
    if (joined === "SUBSCRIBED" || lifetimeSeconds >= 48) {
      expect(joined).toBe("SUBSCRIBED");
      break;
    }
    await client.removeAllChannels();
  }
  await waitFor("channel closed at expiry", () => statuses.includes("CLOSED"));
  expect(system).toEqual([
    {
      extension: "system",
      status: "error",
      message: expect.stringMatching(/^Token has expired \d+ seconds ago$/),
      channel: "fx-rt-expiring",
    },
  ]);
});

test("the opaque sb_publishable key works as apikey and as the join's access_token", async () => {
  const client = createClient(apiUrl, publishableKey, { auth: { persistSession: false, autoRefreshToken: false } });
  await client.realtime.setAuth();
  expect(client.realtime.accessTokenValue).toBe(publishableKey);
  const channel = client.channel("fx-rt-publishable", { config: { broadcast: { self: true } } });
  const got: unknown[] = [];
  channel.on("broadcast", { event: "*" }, (m) => got.push(m));
  expect((await subscribe(channel)).status).toBe("SUBSCRIBED");
  await channel.send({ type: "broadcast", event: "hello", payload: {} });
  await waitFor("own broadcast", () => got.length === 1);
  await client.removeAllChannels();
});

test("[realtime] enabled = false in config.toml turns the service off, as with supabase start", async () => {
  const route = await createRealtimeRoute({ config: { raw: { realtime: { enabled: false } } } } as unknown as ServerContext);
  const server = http.createServer(
    (req, res) => void route.handler(req, res, { path: req.url ?? "/", url: new URL(req.url ?? "/", "http://x") }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/broadcast`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "no Route matched with those values" });
    expect(route.upgrade).toBeDefined();
  } finally {
    server.close();
  }
});

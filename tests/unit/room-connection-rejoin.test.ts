// A page's connection to a room, when its person joins the room in place: the channel it joined as a
// visitor's is left and joined again with the member's presence key (Realtime decides once per join
// whether a page may share its presence), what the page shares is tracked on the new channel, and
// its listeners fetch what they may have missed in between. A key that has not changed joins nothing.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { LiveClient } from "@/lib/supabase/live-client";

type Status = (status: string, error?: Error) => void;

class FakeChannel {
  subscribed: Status | null = null;
  tracked: unknown[] = [];
  removed = false;
  constructor(
    readonly topic: string,
    readonly presenceKey: string,
  ) {}
  on() {
    return this;
  }
  subscribe(callback: Status) {
    this.subscribed = callback;
    return this;
  }
  track(meta: unknown) {
    this.tracked.push(meta);
    return Promise.resolve("ok");
  }
  untrack() {
    return Promise.resolve("ok");
  }
  presenceState() {
    return {};
  }
}

function fakeLive() {
  const channels: FakeChannel[] = [];
  const live = {
    setAuth: () => Promise.resolve(),
    channel: (topic: string, options: { config: { presence: { key: string } } }) => {
      const channel = new FakeChannel(topic, options.config.presence.key);
      channels.push(channel);
      return channel;
    },
    removeChannel: (channel: FakeChannel) => {
      channel.removed = true;
      return Promise.resolve("ok");
    },
  };
  return { live: live as unknown as LiveClient, channels };
}

/** Lets the connection's awaited steps (asking for the token, leaving a channel) run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal("window", new EventTarget());
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

test("a visitor who joins the room in place: the channel is joined again with their key, and their presence is shared there", async () => {
  const { roomConnection } = await import("@/lib/realtime/room-connection");
  const { live, channels } = fakeLive();
  const roomId = "00000000-0000-4000-8000-0000000000a1";
  const statuses: string[] = [];
  let resyncs = 0;

  // A visitor's page: joined without a presence key.
  const connection = roomConnection(live, roomId, { userId: "u-newcomer" });
  const leave = connection.subscribe({ onStatus: (status) => statuses.push(status), onResync: () => resyncs++ });
  await settle();
  expect(channels.map((channel) => channel.presenceKey)).toEqual([""]);
  channels[0].subscribed!("SUBSCRIBED");
  expect(connection.status).toBe("live");

  // Joined in place: "here now" asks with the member's key; the same connection, joined again.
  expect(roomConnection(live, roomId, { userId: "u-newcomer", presenceKey: "u-newcomer" })).toBe(connection);
  connection.setPresence({ user_id: "u-newcomer", at: 1 });
  await settle();
  expect(channels[0].removed).toBe(true);
  expect(channels.map((channel) => channel.presenceKey)).toEqual(["", "u-newcomer"]);
  expect(channels[1].topic).toBe(channels[0].topic);
  expect(connection.status).toBe("reconnecting");
  channels[1].subscribed!("SUBSCRIBED");
  expect(connection.status).toBe("live");
  expect(channels[1].tracked).toEqual([{ user_id: "u-newcomer", at: 1 }]);
  expect(resyncs).toBe(1);
  expect(statuses).toEqual(["joining", "live", "reconnecting", "live"]);

  // Asked again with the same key, or by a listener that shares no presence: nothing is joined again.
  roomConnection(live, roomId, { userId: "u-newcomer", presenceKey: "u-newcomer" });
  roomConnection(live, roomId, { userId: "u-newcomer" });
  await settle();
  expect(channels).toHaveLength(2);
  leave();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(channels[1].removed).toBe(true);
});

test("a member's page joins once, with their key", async () => {
  const { roomConnection } = await import("@/lib/realtime/room-connection");
  const { live, channels } = fakeLive();
  const roomId = "00000000-0000-4000-8000-0000000000a2";
  const connection = roomConnection(live, roomId, { userId: "u-ada", presenceKey: "u-ada" });
  const leave = connection.subscribe({});
  roomConnection(live, roomId, { userId: "u-ada", presenceKey: "u-ada" });
  await settle();
  channels[0].subscribed!("SUBSCRIBED");
  expect(channels.map((channel) => channel.presenceKey)).toEqual(["u-ada"]);
  leave();
  await vi.advanceTimersByTimeAsync(5_000);
});

test("parts of a member's page asking in the same turn, the first without the key: one join, with the key", async () => {
  const { roomConnection } = await import("@/lib/realtime/room-connection");
  const { live, channels } = fakeLive();
  const roomId = "00000000-0000-4000-8000-0000000000a3";
  // The feed asks first (it shares no presence), "here now" right after with the person's key; the
  // token is at hand already (the page's own notification channel asked for it first).
  const feed = roomConnection(live, roomId, { userId: "u-ada" });
  const leave = feed.subscribe({});
  // "Here now" comes a few promise steps later (its own dynamic imports), after the token is set.
  for (let step = 0; step < 10; step++) await Promise.resolve();
  roomConnection(live, roomId, { userId: "u-ada", presenceKey: "u-ada" });
  await settle();
  expect(channels.map((channel) => channel.presenceKey)).toEqual(["u-ada"]);
  leave();
  await vi.advanceTimersByTimeAsync(5_000);
});

// The page's join of its person's channel, `user:{id}`: joined private with the session's token
// asked for first; `notification` and `notifications_read` reach every listener; after any gap (the
// server closing the channel, a timeout) the listeners are told to read again, since what was sent
// meanwhile is not replayed; a refused join is not retried; the last listener's leaving ends it.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { UserChannelEvent } from "@/lib/notifications/user-channel";
import type { LiveClient } from "@/lib/supabase/live-client";

type Status = (status: string, error?: Error) => void;
type Handler = (message: { payload: unknown }) => void;

class FakeChannel {
  subscribed: Status | null = null;
  removed = false;
  state = "joining";
  readonly handlers = new Map<string, Handler>();
  constructor(
    readonly topic: string,
    readonly options: unknown,
  ) {}
  on(_type: string, filter: { event: string }, handler: Handler) {
    this.handlers.set(filter.event, handler);
    return this;
  }
  subscribe(callback: Status) {
    this.subscribed = callback;
    return this;
  }
  send(event: string, payload: unknown) {
    this.handlers.get(event)?.({ payload });
  }
}

function fakeLive() {
  const channels: FakeChannel[] = [];
  let authorized = 0;
  const live = {
    setAuth: () => {
      authorized++;
      return Promise.resolve();
    },
    channel: (topic: string, options: unknown) => {
      const channel = new FakeChannel(topic, options);
      channels.push(channel);
      return channel;
    },
    removeChannel: (channel: FakeChannel) => {
      channel.removed = true;
      return Promise.resolve("ok");
    },
  };
  return { live: live as unknown as LiveClient, channels, authorized: () => authorized };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const userId = "00000000-0000-4000-8000-0000000000b1";

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal("window", new EventTarget());
  vi.resetModules();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

test("joins its person's private channel with the token, and passes on what the database sends", async () => {
  const { userChannel } = await import("@/lib/notifications/user-channel");
  const { live, channels, authorized } = fakeLive();
  const bell: UserChannelEvent[] = [];
  const page: UserChannelEvent[] = [];
  userChannel(live, userId).subscribe((event) => bell.push(event));
  userChannel(live, userId).subscribe((event) => page.push(event));
  await settle();
  expect(authorized()).toBe(1);
  expect(channels).toHaveLength(1);
  expect(channels[0].topic).toBe(`user:${userId}`);
  expect(channels[0].options).toEqual({ config: { private: true } });

  channels[0].subscribed!("SUBSCRIBED");
  expect(bell).toEqual([]); // the first join needs no reading again: the page was rendered with the data
  channels[0].send("notification", { id: "n1", kind: "reply" });
  channels[0].send("notification", { kind: "reply" }); // not a notification's shape: ignored
  channels[0].send("notifications_read", { read: true });
  expect(bell).toEqual([{ type: "notification", id: "n1", kind: "reply" }, { type: "read" }]);
  expect(page).toEqual(bell);
});

test("after the server closes the channel it joins again, and the listeners read again", async () => {
  const { userChannel } = await import("@/lib/notifications/user-channel");
  const { live, channels, authorized } = fakeLive();
  const heard: UserChannelEvent[] = [];
  userChannel(live, userId).subscribe((event) => heard.push(event));
  await settle();
  channels[0].subscribed!("SUBSCRIBED");
  channels[0].subscribed!("CLOSED");
  await vi.advanceTimersByTimeAsync(1_000);
  expect(channels).toHaveLength(2);
  expect(authorized()).toBe(2); // a fresh token for the new join
  channels[1].subscribed!("SUBSCRIBED");
  expect(heard).toEqual([{ type: "resync" }]);
  // The old channel's messages are not the page's any more.
  channels[0].send("notification", { id: "old", kind: "reply" });
  expect(heard).toEqual([{ type: "resync" }]);
});

test("a timeout, then joined again on the same channel: read again", async () => {
  const { userChannel } = await import("@/lib/notifications/user-channel");
  const { live, channels } = fakeLive();
  const heard: UserChannelEvent[] = [];
  userChannel(live, userId).subscribe((event) => heard.push(event));
  await settle();
  channels[0].subscribed!("SUBSCRIBED");
  channels[0].subscribed!("TIMED_OUT");
  channels[0].subscribed!("SUBSCRIBED");
  expect(heard).toEqual([{ type: "resync" }]);
  expect(channels).toHaveLength(1);
});

test("a refused join is left and not tried again", async () => {
  const { userChannel } = await import("@/lib/notifications/user-channel");
  const { live, channels } = fakeLive();
  const heard: UserChannelEvent[] = [];
  userChannel(live, userId).subscribe((event) => heard.push(event));
  await settle();
  channels[0].subscribed!(
    "CHANNEL_ERROR",
    new Error(`Unauthorized: You do not have permissions to read from this Channel topic: user:${userId}`),
  );
  await vi.advanceTimersByTimeAsync(60_000);
  expect(channels).toHaveLength(1);
  expect(channels[0].removed).toBe(true);
  expect(heard).toEqual([]);
});

test("the channel outlives its last listener briefly (moving between pages), then is left", async () => {
  const { userChannel } = await import("@/lib/notifications/user-channel");
  const { live, channels } = fakeLive();
  const stop = userChannel(live, userId).subscribe(() => {});
  await settle();
  channels[0].subscribed!("SUBSCRIBED");
  stop();
  await vi.advanceTimersByTimeAsync(1_000);
  const again = userChannel(live, userId).subscribe(() => {});
  await vi.advanceTimersByTimeAsync(10_000);
  expect(channels).toHaveLength(1);
  expect(channels[0].removed).toBe(false);
  again();
  await vi.advanceTimersByTimeAsync(3_000);
  expect(channels[0].removed).toBe(true);
  // A later listener joins anew.
  userChannel(live, userId).subscribe(() => {});
  await settle();
  expect(channels).toHaveLength(2);
});

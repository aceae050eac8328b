// How the room's and the session's connections read their channel's join status, and when a join
// must be followed by a fetch of what was missed.
import { expect, test } from "vitest";
import { channelTurn, MissedChanges } from "@/lib/realtime/channel-status";

test("each join status says what the page does next", () => {
  expect(channelTurn("SUBSCRIBED")).toEqual({ kind: "joined" });
  expect(
    channelTurn("CHANNEL_ERROR", new Error("Unauthorized: You do not have permissions to read from this Channel topic: room:x")),
  ).toEqual({
    kind: "refused",
    message: "Unauthorized: You do not have permissions to read from this Channel topic: room:x",
  });
  expect(channelTurn("CHANNEL_ERROR", new Error("UnableToConnectToProject: Realtime was unable to connect"))).toEqual({
    kind: "gap",
    detail: "UnableToConnectToProject: Realtime was unable to connect",
  });
  expect(channelTurn("CHANNEL_ERROR")).toEqual({ kind: "gap", detail: "" });
  expect(channelTurn("TIMED_OUT")).toEqual({ kind: "gap" });
  expect(channelTurn("CLOSED")).toEqual({ kind: "closed" });
});

test("the first join fetches nothing; every later join, and a join after an early gap, fetches what was missed", () => {
  const first = new MissedChanges();
  expect(first.everLive).toBe(false);
  expect(first.joined()).toBe(false);
  expect(first.everLive).toBe(true);
  expect(first.pending).toBe(false);
  // Rejoined by realtime-js after a drop this page did not hear about.
  expect(first.joined()).toBe(true);
  first.gap();
  expect(first.pending).toBe(true);
  expect(first.joined()).toBe(true);
  expect(first.pending).toBe(false);

  // Offline before the channel was ever live: the page was rendered before the gap.
  const early = new MissedChanges();
  early.gap();
  expect(early.joined()).toBe(true);
});

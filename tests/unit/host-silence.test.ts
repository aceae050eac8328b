// A host is taken to be gone when their heartbeats stop, whatever presence says: the beats come from
// the database (only it sends on the session's topic), presence from any member.
import { expect, test } from "vitest";
import { hostBeatOf, hostSilent, hostSilentAfterMs } from "@/lib/sessions/host-silence";

const beat = (hostId: string, at: number) => ({ hostId, at });

test("a host heard lately is not silent; four missed beats and they are", () => {
  expect(hostSilent("h", beat("h", 10_000), 0, 10_000 + hostSilentAfterMs)).toBe(false);
  expect(hostSilent("h", beat("h", 10_000), 0, 10_000 + hostSilentAfterMs + 1)).toBe(true);
});

test("before any beat, the silence counts from when the page began listening (a page that just joined waits)", () => {
  expect(hostSilent("h", null, 50_000, 50_000 + hostSilentAfterMs)).toBe(false);
  expect(hostSilent("h", null, 50_000, 50_000 + hostSilentAfterMs + 1)).toBe(true);
  // a beat heard before a rejoin does not make the page conclude early after it
  expect(hostSilent("h", beat("h", 1_000), 50_000, 50_000 + 1_000)).toBe(false);
});

test("beats of someone who is not the host now say nothing about the host", () => {
  expect(hostSilent("new-host", beat("old-host", 99_000), 0, 100_000)).toBe(true);
  expect(hostSilent(null, null, 0, 1e9)).toBe(false);
});

test("only well-formed host messages are beats", () => {
  expect(hostBeatOf({ session_id: "s", host_id: "h", seen_at: "2026-11-26T00:00:00Z", id: "m" })).toEqual({
    session_id: "s",
    host_id: "h",
    seen_at: "2026-11-26T00:00:00Z",
  });
  for (const payload of [null, "x", { host_id: "h" }, { session_id: 1, host_id: "h", seen_at: "t" }])
    expect(hostBeatOf(payload)).toBeNull();
});

// What the page makes of the session row's turns and tally (lib/sessions/turns.ts): the waitlist
// read defensively, whose turn it is and who is next (the first with a post picked), the person's
// place, the turn's end only while someone plays, and the words for the tally, the share and the
// longest turn.
import { describe, expect, test } from "vitest";
import { shareText, skipTallyOf, tallyText, timeLeftText, turnLengthText, turnsView, waitlistOf } from "@/lib/sessions/turns";
import type { SessionRow } from "@/lib/sessions/types";

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  id: "s1",
  room_id: "r1",
  started_by: "u1",
  host_id: "dj",
  host_seen_at: "2026-11-25T10:00:00Z",
  ready_check_seconds: 10,
  ready_check_each_track: false,
  mode: "dj_turns",
  track: 4,
  turn: 2,
  turn_ends_at: "2026-11-25T10:05:00Z",
  dj_waitlist: [
    { user_id: "a", post_id: null },
    { user_id: "b", post_id: "p2" },
  ],
  skip_votes: 1,
  skip_needed: 2,
  skip_voters: ["a"],
  post_id: "p1",
  position_seconds: 0,
  playing: true,
  rate: 1,
  state_at: "2026-11-25T10:00:00Z",
  version: 7,
  started_at: "2026-11-25T10:00:00Z",
  ended_at: null,
  ...over,
});

describe("turnsView", () => {
  test("whose turn, who is next (the first with a pick), and the person's place", () => {
    const view = turnsView(row(), "b");
    expect([view.djId, view.next?.userId, view.place, view.isDj, view.endsAtMs]).toEqual([
      "dj",
      "b",
      2,
      false,
      Date.parse("2026-11-25T10:05:00Z"),
    ]);
    expect(turnsView(row(), "dj").isDj).toBe(true);
    expect(turnsView(row(), "c").place).toBeNull();
  });

  test("nobody playing: no DJ and no end; a hosted session has no DJ", () => {
    const idle = turnsView(row({ host_id: null, post_id: null, turn_ends_at: "1970-01-01T00:00:00+00:00" }), "a");
    expect([idle.djId, idle.endsAtMs, idle.isDj]).toEqual([null, null, false]);
    expect(turnsView(row({ mode: "host" }), "dj").djId).toBeNull();
  });

  test("a malformed waitlist is read as far as it makes sense", () => {
    expect(waitlistOf(row({ dj_waitlist: [{ user_id: "a" }, { post_id: "p" }, "x", null, { user_id: 3 }] }))).toEqual([
      { userId: "a", postId: null },
    ]);
    expect(waitlistOf(row({ dj_waitlist: {} }))).toEqual([]);
    expect(waitlistOf(null)).toEqual([]);
  });
});

describe("the tally and its words", () => {
  test("votes of those needed, and whether the person voted", () => {
    expect(skipTallyOf(row(), "a")).toEqual({ track: 4, votes: 1, needed: 2, voted: true });
    expect(tallyText(skipTallyOf(row(), "b"), 0.5)).toBe("1 of 2 to skip");
  });

  test("before the first vote, the share in words", () => {
    const none = skipTallyOf(row({ skip_votes: 0, skip_needed: 0, skip_voters: [] }), "b");
    expect(tallyText(none, 0.5)).toBe("Half of the people listening along skip a track");
    expect([0.25, 0.33, 0.67, 1, 0.4].map(shareText)).toEqual(["A quarter", "A third", "Two thirds", "All", "40%"]);
  });

  test("turn lengths and time left", () => {
    expect([60, 480, 90].map(turnLengthText)).toEqual(["1 minute", "8 minutes", "90 seconds"]);
    expect([187_000, 999, -5].map(timeLeftText)).toEqual(["3:07", "0:01", "0:00"]);
  });
});

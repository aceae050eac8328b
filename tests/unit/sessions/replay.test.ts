// Replaying an ended session: the history on the replay's clock, which track plays where at any
// moment, which comments have popped up by then, the replay's own clock, and the words.
import { describe, expect, test } from "vitest";
import {
  clockAt,
  clockEnded,
  formatReplayClock,
  type HistoryRow,
  lengthInWords,
  momentOf,
  pauseClock,
  playClock,
  positionAt,
  replayClockStart,
  replayLength,
  replaySummary,
  seekClock,
  sessionWhen,
  shownAt,
  stretchesOf,
  trackIndexAt,
  tracksOf,
} from "@/lib/sessions/replay";

const session = { started_at: "2026-11-26T20:00:00.000Z", ended_at: "2026-11-26T20:10:00.000Z" };
const at = (seconds: number) => new Date(Date.parse(session.started_at) + seconds * 1000).toISOString();
const row = (post: string, from: number, to: number | null, position: number, playing = true, rate = 1): HistoryRow => ({
  post_id: post,
  started_at: at(from),
  ended_at: to === null ? null : at(to),
  position_seconds: position,
  playing,
  rate,
});

// a loaded (paused 5 s), played from 0 for 60 s, paused 10 s at 60, played on until 200; then b
// from 30 s for 100 s; then nothing for a while; then c at 2× until the end (left open).
const history = [
  row("b", 200, 300, 30),
  row("a", 0, 5, 0, false),
  row("a", 5, 65, 0),
  row("a", 65, 75, 60, false),
  row("a", 75, 200, 60),
  row("c", 400, null, 0, true, 2),
];

describe("the history on the replay's clock", () => {
  const stretches = stretchesOf(history, session);

  test("the session's length, and nothing for one still live", () => {
    expect(replayLength(session)).toBe(600_000);
    expect(replayLength({ ...session, ended_at: null })).toBe(0);
  });

  test("stretches in order, relative to the start; one left open runs to the end", () => {
    expect(stretches.map((s) => [s.postId, s.startMs, s.endMs])).toEqual([
      ["a", 0, 5_000],
      ["a", 5_000, 65_000],
      ["a", 65_000, 75_000],
      ["a", 75_000, 200_000],
      ["b", 200_000, 300_000],
      ["c", 400_000, 600_000],
    ]);
  });

  test("a stretch before the start or past the end is clamped to the session; an empty one goes", () => {
    const odd = stretchesOf([row("a", -5, 2, 0), row("b", 590, 700, 0), row("c", 650, 660, 0)], session);
    expect(odd.map((s) => [s.postId, s.startMs, s.endMs])).toEqual([
      ["a", 0, 2_000],
      ["b", 590_000, 600_000],
    ]);
  });

  test("stretches of posts that cannot be played (removed, hidden) are left out", () => {
    expect(stretchesOf(history, session, (post) => post !== "b").map((s) => s.postId)).toEqual(["a", "a", "a", "a", "c"]);
  });

  test("the track list: one track per run of one post, from where it was first played", () => {
    expect(tracksOf(stretches)).toEqual([
      { postId: "a", startMs: 0, endMs: 200_000, from: 0 },
      { postId: "b", startMs: 200_000, endMs: 300_000, from: 30 },
      { postId: "c", startMs: 400_000, endMs: 600_000, from: 0 },
    ]);
  });

  test("a post played twice, apart, is two tracks", () => {
    expect(tracksOf(stretchesOf([row("a", 0, 10, 0), row("b", 10, 20, 0), row("a", 20, 30, 5)], session)).map((t) => t.postId)).toEqual([
      "a",
      "b",
      "a",
    ]);
  });
});

describe("where the replay is", () => {
  const stretches = stretchesOf(history, session);

  test("a loaded, paused post stays at its position", () => {
    expect(positionAt(stretches, 0)).toEqual({ postId: "a", seconds: 0, playing: false, rate: 1 });
    expect(positionAt(stretches, 4_999)).toMatchObject({ postId: "a", seconds: 0, playing: false });
  });

  test("playing, the position moves with the clock", () => {
    expect(positionAt(stretches, 5_000)).toMatchObject({ postId: "a", seconds: 0, playing: true });
    expect(positionAt(stretches, 35_000)).toMatchObject({ postId: "a", seconds: 30, playing: true });
  });

  test("a pause holds the position; play resumes from it", () => {
    expect(positionAt(stretches, 70_000)).toMatchObject({ postId: "a", seconds: 60, playing: false });
    expect(positionAt(stretches, 80_000)).toMatchObject({ postId: "a", seconds: 65, playing: true });
  });

  test("the next track starts from where it was played from", () => {
    expect(positionAt(stretches, 200_000)).toMatchObject({ postId: "b", seconds: 30 });
    expect(positionAt(stretches, 250_000)).toMatchObject({ postId: "b", seconds: 80 });
  });

  test("between tracks nothing plays", () => {
    expect(positionAt(stretches, 300_000)).toBeNull();
    expect(positionAt(stretches, 399_999)).toBeNull();
  });

  test("the rate counts", () => {
    expect(positionAt(stretches, 410_000)).toEqual({ postId: "c", seconds: 20, playing: true, rate: 2 });
  });

  test("at the end, nothing plays", () => {
    expect(positionAt(stretches, 600_000)).toBeNull();
  });

  test("which track the list marks", () => {
    const tracks = tracksOf(stretches);
    expect(trackIndexAt(tracks, 0)).toBe(0);
    expect(trackIndexAt(tracks, 250_000)).toBe(1);
    expect(trackIndexAt(tracks, 350_000)).toBe(1);
    expect(trackIndexAt(tracks, 599_000)).toBe(2);
    expect(trackIndexAt([], 10)).toBe(-1);
  });
});

describe("comments at their moments", () => {
  const events = [
    { id: "late", atMs: momentOf(at(250), session) },
    { id: "first", atMs: momentOf(at(10), session) },
    { id: "early-b", atMs: momentOf(at(10), session) },
    { id: "after", atMs: momentOf(at(900), session) },
  ];

  test("a moment is its time since the start, kept within the session", () => {
    expect(momentOf(at(10), session)).toBe(10_000);
    expect(momentOf(at(-3), session)).toBe(0);
    expect(momentOf(at(900), session)).toBe(600_000);
  });

  test("what has popped up by t, in the order it happened", () => {
    expect(shownAt(events, 0).map((e) => e.id)).toEqual([]);
    expect(shownAt(events, 10_000).map((e) => e.id)).toEqual(["early-b", "first"]);
    expect(shownAt(events, 249_999).map((e) => e.id)).toEqual(["early-b", "first"]);
    expect(shownAt(events, 250_000).map((e) => e.id)).toEqual(["early-b", "first", "late"]);
    expect(shownAt(events, 600_000).map((e) => e.id)).toEqual(["early-b", "first", "late", "after"]);
  });

  test("seeking back hides what came later", () => {
    expect(shownAt(events, 9_000)).toEqual([]);
  });
});

describe("the replay's clock", () => {
  const length = 60_000;

  test("paused at the start until played", () => {
    expect(clockAt(replayClockStart, 5_000, length)).toBe(0);
  });

  test("plays with local time, pauses where it is, and stops at the end", () => {
    const playing = playClock(replayClockStart, 1_000, length);
    expect(clockAt(playing, 3_500, length)).toBe(2_500);
    const paused = pauseClock(playing, 4_000, length);
    expect(clockAt(paused, 90_000, length)).toBe(3_000);
    expect(clockAt(playClock(paused, 100_000, length), 200_000, length)).toBe(length);
    expect(clockEnded(playClock(paused, 100_000, length), 200_000, length)).toBe(true);
  });

  test("a seek keeps playing or paused, within the replay", () => {
    const playing = playClock(replayClockStart, 0, length);
    const sought = seekClock(playing, 30_000, 1_000, length);
    expect(clockAt(sought, 2_000, length)).toBe(31_000);
    expect(clockAt(seekClock(pauseClock(playing, 0, length), 99_999, 0, length), 5_000, length)).toBe(length);
    expect(clockAt(seekClock(playing, -4, 0, length), 0, length)).toBe(0);
  });

  test("play at the end starts again from the start", () => {
    const ended = seekClock(replayClockStart, length, 0, length);
    expect(clockAt(playClock(ended, 10, length), 10, length)).toBe(0);
  });
});

describe("words", () => {
  test("clock times", () => {
    expect(formatReplayClock(7_900)).toBe("0:07");
    expect(formatReplayClock(754_000)).toBe("12:34");
    expect(formatReplayClock(3_723_000)).toBe("1:02:03");
    expect(formatReplayClock(-5)).toBe("0:00");
  });

  test("lengths and the summary", () => {
    expect(lengthInWords(20_000)).toBe("under a minute");
    expect(lengthInWords(45 * 60_000)).toBe("45 min");
    expect(lengthInWords(2 * 3_600_000)).toBe("2 h");
    expect(lengthInWords(80 * 60_000)).toBe("1 h 20 min");
    expect(replaySummary(2 * 3_600_000, 14, 120)).toBe("2 h, 14 tracks, 120 comments");
    expect(replaySummary(5 * 60_000, 1, 1)).toBe("5 min, 1 track, 1 comment");
    expect(replaySummary(5 * 60_000, 2, 0)).toBe("5 min, 2 tracks, 0 comments");
  });

  test("when it was", () => {
    const now = new Date("2026-11-27T09:00:00Z");
    expect(sessionWhen("2026-11-27T07:00:00Z", now)).toBe("Today's session");
    expect(sessionWhen("2026-11-26T21:00:00Z", now)).toBe("Last night's session");
    expect(sessionWhen("2026-11-26T10:00:00Z", now)).toBe("Yesterday's session");
    expect(sessionWhen("2026-11-12T10:00:00Z", now)).toBe("The session of 12 November");
    expect(sessionWhen("2025-11-12T10:00:00Z", now)).toBe("The session of 12 November 2025");
    expect(sessionWhen("2026-11-27T19:00:00Z", new Date("2026-11-27T23:00:00Z"))).toBe("Tonight's session");
    // the reader's day: 02:00 UTC on the 27th is the evening of the 26th in New York
    expect(sessionWhen("2026-11-27T02:00:00Z", new Date("2026-11-27T15:00:00Z"), "America/New_York")).toBe("Last night's session");
  });
});

// The ready check's rules and its store: who is ready (only those following count), when the host's
// play starts (everyone ready, or the wait ran out, or "Start anyway"), and what the host reads.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  type Awaited,
  addReadyMark,
  awaitedOf,
  checksBeforePlay,
  idleCheck,
  isReadyFor,
  namesText,
  readyCheckReducer,
  type ReadyMark,
  readyMarkOf,
  type ReadyMarks,
  startedText,
  tallyReady,
  waitingText,
} from "@/lib/sessions/ready-check";
import { ReadyCheckStore, readyTickMs } from "@/lib/sessions/ready-check-store";

const bea = "00000000-0000-4000-8000-0000000000b0";
const cy = "00000000-0000-4000-8000-0000000000c0";
const outsider = "00000000-0000-4000-8000-0000000000f0";
const post = "00000000-0000-4000-8000-000000000001";
const other = "00000000-0000-4000-8000-000000000002";
const t0 = Date.parse("2026-12-01T10:00:00Z");

const mark = (userId: string, postId = post, positionSeconds = 0, readyAt = t0): ReadyMark => ({
  userId,
  postId,
  positionSeconds,
  readyAt,
});
const marksOf = (...list: ReadyMark[]): ReadyMarks => list.reduce<ReadyMarks>((all, one) => addReadyMark(all, one), new Map());
const people: Awaited[] = [
  { userId: bea, name: "Bea" },
  { userId: cy, name: "Cy" },
];
const target = { postId: post, positionSeconds: 0 };

describe("marks", () => {
  test("a ready message's payload (or a stored row) is read; anything else is ignored", () => {
    expect(readyMarkOf({ user_id: bea, post_id: post, position_seconds: 1.5, ready_at: "2026-12-01T10:00:00Z", session_id: "x" })).toEqual(
      mark(bea, post, 1.5),
    );
    expect(readyMarkOf({ user_id: bea, post_id: post, position_seconds: "2", ready_at: "2026-12-01T10:00:00Z" })?.positionSeconds).toBe(2);
    expect(readyMarkOf(null)).toBeNull();
    expect(readyMarkOf("ready")).toBeNull();
    expect(readyMarkOf({ user_id: "bea", post_id: post, position_seconds: 0, ready_at: "2026-12-01T10:00:00Z" })).toBeNull();
    expect(readyMarkOf({ user_id: bea, post_id: post, position_seconds: -1, ready_at: "2026-12-01T10:00:00Z" })).toBeNull();
    expect(readyMarkOf({ user_id: bea, post_id: post, position_seconds: 0, ready_at: "soon" })).toBeNull();
    expect(readyMarkOf({ user_id: bea, post_id: post, ready_at: "2026-12-01T10:00:00Z" })).toBeNull();
  });

  test("the newest mark per person and post is kept; an older one arriving late changes nothing", () => {
    const marks = marksOf(mark(bea, post, 40, t0 + 1000), mark(bea, post, 0, t0), mark(bea, other, 0, t0));
    expect(marks.size).toBe(2);
    expect(isReadyFor(marks, bea, { postId: post, positionSeconds: 40 })).toBe(true);
    expect(isReadyFor(marks, bea, target)).toBe(false);
    const same = marksOf(mark(bea));
    expect(addReadyMark(same, mark(bea))).toBe(same);
  });

  test("a mark counts near where it was made: a seek since needs a new one", () => {
    const marks = marksOf(mark(bea, post, 2));
    expect(isReadyFor(marks, bea, target)).toBe(true);
    expect(isReadyFor(marks, bea, { postId: post, positionSeconds: 5 })).toBe(true);
    expect(isReadyFor(marks, bea, { postId: post, positionSeconds: 6 })).toBe(false);
    expect(isReadyFor(marks, bea, { postId: other, positionSeconds: 2 })).toBe(false);
    expect(isReadyFor(marks, cy, target)).toBe(false);
  });
});

describe("who is awaited", () => {
  const listener = (user_id: string, following: boolean, isHost = false) => ({ user_id, following, isHost, name: user_id });
  test("those here following the host, once each — not the host, not someone listening on their own", () => {
    const awaited = awaitedOf(
      [listener("host", true, true), listener(bea, true), listener(cy, false), listener(bea, true), listener(outsider, true)],
      (l) => l.name,
    );
    expect(awaited.map((a) => a.userId)).toEqual([bea, outsider]);
  });

  test("a ready message from someone not following is ignored: they are neither ready nor awaited", () => {
    const awaited = awaitedOf([listener(bea, true), listener(cy, false)], (l) => (l.user_id === bea ? "Bea" : "Cy"));
    const { ready, waiting } = tallyReady(awaited, marksOf(mark(cy), mark(outsider)), target);
    expect(ready).toEqual([]);
    expect(waiting).toEqual([{ userId: bea, name: "Bea" }]);
  });

  test("ready and still loading, in the listeners' order", () => {
    expect(tallyReady(people, marksOf(mark(cy)), target)).toEqual({ ready: [people[1]], waiting: [people[0]] });
  });
});

describe("when the check runs", () => {
  const paused = { postId: post, playing: false, positionSeconds: 0 };
  test("play pressed at a track's start, with the check on", () => {
    expect(checksBeforePlay({ seconds: 10, eachTrack: false }, paused)).toBe(true);
    expect(checksBeforePlay({ seconds: 5, eachTrack: true }, { ...paused, positionSeconds: 0.8 })).toBe(true);
  });
  test("not with the check off, mid-track, playing, or nothing loaded", () => {
    expect(checksBeforePlay({ seconds: 0, eachTrack: true }, paused)).toBe(false);
    expect(checksBeforePlay({ seconds: 10, eachTrack: false }, { ...paused, positionSeconds: 42 })).toBe(false);
    expect(checksBeforePlay({ seconds: 10, eachTrack: false }, { ...paused, playing: true })).toBe(false);
    expect(checksBeforePlay({ seconds: 10, eachTrack: false }, { ...paused, postId: null })).toBe(false);
  });
});

describe("the check", () => {
  const begun = readyCheckReducer(idleCheck, { type: "begin", target, now: t0, waitMs: 10_000 });
  test("waits while someone is loading and the wait has time left", () => {
    expect(begun).toEqual({ phase: "waiting", target, startedAt: t0, deadline: t0 + 10_000 });
    expect(readyCheckReducer(begun, { type: "tick", now: t0 + 9_999, waiting: [people[0]] })).toBe(begun);
  });
  test("starts when everyone is ready", () => {
    expect(readyCheckReducer(begun, { type: "tick", now: t0 + 100, waiting: [] })).toEqual({
      phase: "started",
      target,
      because: "everyone",
      missing: [],
    });
  });
  test("starts when the wait runs out, naming who was not ready", () => {
    expect(readyCheckReducer(begun, { type: "tick", now: t0 + 10_000, waiting: [people[0]] })).toEqual({
      phase: "started",
      target,
      because: "timeout",
      missing: [people[0]],
    });
  });
  test("starts at once when the host does not wait", () => {
    expect(readyCheckReducer(begun, { type: "start-anyway", waiting: people })).toMatchObject({ because: "anyway", missing: people });
  });
  test("a cancelled check starts nothing; ticks and cancels outside a check change nothing", () => {
    expect(readyCheckReducer(begun, { type: "cancel" })).toBe(idleCheck);
    expect(readyCheckReducer(idleCheck, { type: "tick", now: t0, waiting: [] })).toBe(idleCheck);
    const started = readyCheckReducer(begun, { type: "tick", now: t0, waiting: [] });
    expect(readyCheckReducer(started, { type: "cancel" })).toBe(started);
    expect(readyCheckReducer(started, { type: "dismiss" })).toBe(idleCheck);
  });
});

describe("words", () => {
  test("names, the wait and the result", () => {
    expect(namesText([])).toBe("");
    expect(namesText([people[0]])).toBe("Bea");
    expect(namesText(people)).toBe("Bea and Cy");
    expect(namesText([...people, { userId: "d", name: "Dee" }])).toBe("Bea, Cy and Dee");
    expect(namesText([...people, { userId: "d", name: "Dee" }, { userId: "e", name: "Eli" }])).toBe("Bea, Cy and 2 others");
    expect(waitingText([])).toBe("Everyone is ready");
    expect(waitingText([people[0]])).toBe("Waiting for Bea…");
    expect(waitingText(people)).toBe("Waiting for 2 listeners…");
    expect(startedText({ phase: "started", target, because: "timeout", missing: [people[0]] })).toBe("Started without Bea — still loading");
    expect(startedText({ phase: "started", target, because: "everyone", missing: [] })).toBeNull();
    expect(startedText(idleCheck)).toBeNull();
  });
});

describe("the store, on fake timers", () => {
  let now = t0;
  let store: ReadyCheckStore;
  const started: unknown[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    now = t0;
    started.length = 0;
    store = new ReadyCheckStore({ now: () => now, start: (at) => started.push(at) });
    store.setAwaited(people);
  });
  afterEach(() => {
    store.stop();
    vi.useRealTimers();
  });
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  test("play waits for the slow buffer, and starts the moment the last one is ready", () => {
    store.receive(mark(cy));
    store.begin(target, 10_000);
    expect(store.getSnapshot()).toMatchObject({ check: { phase: "waiting" }, ready: [people[1]], waiting: [people[0]], secondsLeft: 10 });
    advance(3_000);
    expect(store.getSnapshot().secondsLeft).toBe(7);
    expect(started).toEqual([]);
    store.receive(mark(bea, post, 0, t0 + 3_000));
    expect(started).toEqual([target]);
    expect(store.getSnapshot().check).toEqual({ phase: "started", target, because: "everyone", missing: [] });
    advance(20_000);
    expect(started).toHaveLength(1);
  });

  test("after the wait, play starts without whoever is still loading, and says who", () => {
    store.receive(mark(cy));
    store.begin(target, 5_000);
    advance(4_750);
    expect(started).toEqual([]);
    advance(readyTickMs);
    expect(started).toEqual([target]);
    expect(startedText(store.getSnapshot().check)).toBe("Started without Bea — still loading");
  });

  test("a mark from someone not awaited does not end the wait", () => {
    store.begin(target, 10_000);
    store.receive(mark(outsider), mark(bea, other));
    advance(1_000);
    expect(started).toEqual([]);
    expect(store.getSnapshot().waiting).toEqual(people);
  });

  test("someone who stops following is no longer waited for", () => {
    store.receive(mark(cy));
    store.begin(target, 30_000);
    store.setAwaited([people[1]]);
    expect(started).toEqual([target]);
  });

  test("with everyone ready already, play starts at once; with nobody following, too", () => {
    store.receive(mark(bea), mark(cy));
    store.begin(target, 10_000);
    expect(started).toEqual([target]);
    store.dismiss();
    store.setAwaited([]);
    store.begin({ postId: other, positionSeconds: 0 }, 10_000);
    expect(started).toHaveLength(2);
  });

  test("start anyway, and a cancelled check that never plays", () => {
    store.begin(target, 30_000);
    store.startAnyway();
    expect(started).toEqual([target]);
    expect(store.getSnapshot().check).toMatchObject({ because: "anyway", missing: people });
    store.begin(target, 5_000);
    store.cancel();
    advance(10_000);
    expect(started).toHaveLength(1);
    expect(store.getSnapshot().check).toBe(idleCheck);
  });

  test("a move needs no wait once everyone awaited is ready for where it goes", () => {
    store.receive(mark(bea, other, 0));
    expect(store.allReady({ postId: other, positionSeconds: 0 })).toBe(false);
    store.receive(mark(cy, other, 0), mark(outsider, post, 0));
    expect(store.allReady({ postId: other, positionSeconds: 0 })).toBe(true);
    expect(store.allReady(target)).toBe(false);
  });

  test("before any check, the preview shows who is ready for what play would start", () => {
    store.receive(mark(bea, post, 0));
    store.setPreview(target);
    expect(store.getSnapshot()).toMatchObject({ check: idleCheck, ready: [people[0]], waiting: [people[1]] });
    store.setPreview(null);
    expect(store.getSnapshot()).toMatchObject({ ready: [], waiting: [] });
  });
});

// The live ticker: comments pop up as playback passes their time, a comment just made pops at once,
// a seek does not dump everything it skipped, and another post starts afresh.
import { expect, test } from "vitest";
import type { Moment } from "@/lib/moments/types";
import { initialTicker, maxShown, passedMoments, shownMs, tickerStep, type TickerState } from "@/lib/sessions/ticker";

const moment = (id: string, at: number | null, post = "p"): Moment => ({
  id,
  post_id: post,
  author_id: "u",
  at_seconds: at,
  body: `comment ${id}`,
  created_at: "2026-11-24T00:00:00Z",
  updated_at: "2026-11-24T00:00:00Z",
  author: { username: "ada", display_name: "Ada", avatar_path: null },
  reactions: [],
});

const ids = (state: TickerState) => state.shown.map((item) => item.moment.id);

test("passing a comment's time pops it; a seek forward or back pops nothing", () => {
  const moments = [moment("a", 10), moment("b", 10.5), moment("c", 30), moment("general", null)];
  expect(passedMoments(moments, 9.8, 10.2).map((m) => m.id)).toEqual(["a"]);
  expect(passedMoments(moments, 10.2, 10.6).map((m) => m.id)).toEqual(["b"]);
  expect(passedMoments(moments, 5, 31)).toEqual([]);
  expect(passedMoments(moments, 31, 9)).toEqual([]);
  expect(passedMoments(moments, null, 10)).toEqual([]);
});

test("a step through playback shows what it passed, for a while", () => {
  const moments = [moment("a", 10), moment("b", 20)];
  let state = tickerStep(initialTicker, { postId: "p", position: 9.9, moments, now: 0 });
  expect(ids(state)).toEqual([]);
  state = tickerStep(state, { postId: "p", position: 10.1, moments, now: 250 });
  expect(ids(state)).toEqual(["a"]);
  state = tickerStep(state, { postId: "p", position: 10.3, moments, now: 250 + shownMs });
  expect(ids(state)).toEqual([]);
});

test("a comment that arrives stamped at (or just behind) the position pops at once; old ones don't", () => {
  const before = [moment("old", 5)];
  let state = tickerStep(initialTicker, { postId: "p", position: 42, moments: before, now: 0 });
  // Paused at 42: a comment just made at 41.8 arrives.
  state = tickerStep(state, { postId: "p", position: 42, moments: [...before, moment("new", 41.8)], now: 100 });
  expect(ids(state)).toEqual(["new"]);
  // One made at 2 s (a person's typed-long-ago stamp far behind) does not interrupt.
  state = tickerStep(state, { postId: "p", position: 42, moments: [...before, moment("new", 41.8), moment("far", 2)], now: 200 });
  expect(ids(state)).toEqual(["new"]);
});

test("a comment made (or received live) before the post's history was read still pops once the ticker starts", () => {
  // The person joined and commented within a second: their comment is in the list by the time the
  // history arrives and the ticker takes its first look.
  const moments = [moment("history", 0.5), moment("mine", 1.1), moment("theirs", 0.9)];
  const arrived = new Set(["mine", "theirs"]);
  let state = tickerStep(initialTicker, { postId: "p", position: 1.3, moments, arrived, now: 0 });
  expect(ids(state)).toEqual([]);
  state = tickerStep(state, { postId: "p", position: 1.55, moments, arrived, now: 250 });
  expect(ids(state)).toEqual(["mine", "theirs"]);
  // Without knowing what arrived live, everything present at the first look is history.
  let blind = tickerStep(initialTicker, { postId: "p", position: 1.3, moments, now: 0 });
  blind = tickerStep(blind, { postId: "p", position: 1.55, moments, now: 250 });
  expect(ids(blind)).toEqual([]);
});

test("comments of another post are ignored; a new post starts with nothing shown", () => {
  let state = tickerStep(initialTicker, { postId: "p", position: 9, moments: [moment("a", 10), moment("x", 9.5, "other")], now: 0 });
  state = tickerStep(state, { postId: "p", position: 10, moments: [moment("a", 10), moment("x", 9.5, "other")], now: 100 });
  expect(ids(state)).toEqual(["a"]);
  // The session moves on: the next post's existing comments are not news, and what showed goes.
  state = tickerStep(state, { postId: "q", position: 0, moments: [moment("q1", 0, "q")], now: 200 });
  expect(ids(state)).toEqual([]);
  state = tickerStep(state, { postId: "q", position: 0.2, moments: [moment("q1", 0, "q")], now: 300 });
  expect(ids(state)).toEqual([]);
});

test("at most a few at once (the newest), edits show, deletions go", () => {
  const many = Array.from({ length: 6 }, (_, index) => moment(`m${index}`, 10 + index * 0.1));
  let state = tickerStep(initialTicker, { postId: "p", position: 9.95, moments: many, now: 0 });
  state = tickerStep(state, { postId: "p", position: 10.6, moments: many, now: 100 });
  expect(ids(state)).toEqual(["m3", "m4", "m5"].slice(-maxShown));
  const edited = many.map((m) => (m.id === "m5" ? { ...m, body: "edited" } : m)).filter((m) => m.id !== "m4");
  state = tickerStep(state, { postId: "p", position: 10.6, moments: edited, now: 200 });
  expect(ids(state)).toEqual(["m3", "m5"]);
  expect(state.shown[1].moment.body).toBe("edited");
});

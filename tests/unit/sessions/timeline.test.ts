// The session's nominal position at a server time: moves at its rate while playing, stands still
// when paused, never before 0 nor past the end.
import { expect, test } from "vitest";
import { positionAt, reachedEnd } from "@/lib/sessions/timeline";

const state = { positionSeconds: 10, playing: true, rate: 1, stateAtMs: 1_000_000 };

test("playing: the position moves on with the server's clock", () => {
  expect(positionAt(state, 1_000_000)).toBe(10);
  expect(positionAt(state, 1_002_500)).toBeCloseTo(12.5, 9);
});

test("at another rate, it moves at that rate", () => {
  expect(positionAt({ ...state, rate: 1.5 }, 1_004_000)).toBeCloseTo(16, 9);
  expect(positionAt({ ...state, rate: 0.5 }, 1_004_000)).toBeCloseTo(12, 9);
});

test("paused: it stays where it was", () => {
  expect(positionAt({ ...state, playing: false }, 1_060_000)).toBe(10);
});

test("a state from a moment later than the page's clock does not move it back", () => {
  expect(positionAt(state, 999_000)).toBe(10);
});

test("it stops at the end of the media, when known", () => {
  expect(positionAt(state, 1_100_000, 60)).toBe(60);
  expect(positionAt(state, 1_100_000, null)).toBe(110);
  expect(reachedEnd(state, 1_050_000, 60)).toBe(true);
  expect(reachedEnd(state, 1_049_000, 60)).toBe(false);
  expect(reachedEnd(state, 1_100_000, null)).toBe(false);
});

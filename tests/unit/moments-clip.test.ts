// A link's clip (`?t=…&end=…`): which ranges count, and when the player stops or lets go.
import { expect, test } from "vitest";
import { type Clip, type ClipEvent, type ClipStatus, clipRange, clipStep, msUntilEnd } from "@/lib/moments/clip";
import { parseStartTime } from "@/lib/moments/start-time";

const range = (t: string | undefined, end: string | undefined, duration: number | null = 300) =>
  clipRange(parseStartTime(t), parseStartTime(end), duration);

test("a start and a later end make a clip, in any form ?t= takes", () => {
  expect(range("1m42s", "2m10s")).toEqual({ start: 102, end: 130 });
  expect(range("3", "5")).toEqual({ start: 3, end: 5 });
  expect(range("1h", "1h0m30s", 4000)).toEqual({ start: 3600, end: 3630 });
  // No start: from the beginning.
  expect(range(undefined, "20")).toEqual({ start: 0, end: 20 });
  // The length not known yet (a hosted link before it loads): the end is taken as given.
  expect(range("10", "9999", null)).toEqual({ start: 10, end: 9999 });
});

test("an end at or before the start, past the media's length, or not a time is ignored", () => {
  expect(range("1m42s", "1m42s")).toBeNull();
  expect(range("2m10s", "1m42s")).toBeNull();
  expect(range("10", "0")).toBeNull();
  expect(range("10", "301")).toBeNull();
  expect(range("10", "5m1s")).toBeNull();
  for (const garbage of ["", "soon", "-5", "1:42", "1.5", "99999999", "0x10"]) expect(range("10", garbage), garbage).toBeNull();
  expect(range("10", undefined)).toBeNull();
  // A stored length is whole seconds: half a second over still fits.
  expect(clipRange(10, 300, 299.6)).toEqual({ start: 10, end: 300 });
});

const clip: Clip = { start: 3, end: 5 };
function run(events: ClipEvent[], from: ClipStatus = "armed") {
  let status = from;
  const pauses: number[] = [];
  for (const event of events) {
    const next = clipStep(clip, status, event);
    if (next.pause) pauses.push("time" in event ? event.time : -1);
    status = next.status;
  }
  return { status, pauses };
}

test("playing through the end stops there, once", () => {
  expect(
    run([
      { type: "seeked", time: 3 },
      { type: "play", time: 3 },
      { type: "tick", time: 4.9, playing: true },
    ]),
  ).toEqual({
    status: "armed",
    pauses: [],
  });
  expect(run([{ type: "tick", time: 4.96, playing: true }])).toEqual({ status: "stopped", pauses: [4.96] });
  expect(
    run([
      { type: "tick", time: 5.2, playing: true },
      { type: "tick", time: 5.2, playing: false },
    ]),
  ).toEqual({
    status: "stopped",
    pauses: [5.2],
  });
  // Paused near the end: nothing to stop.
  expect(run([{ type: "tick", time: 5, playing: false }])).toEqual({ status: "armed", pauses: [] });
});

test("after it stopped, the person decides: play on, seek away, or replay the clip", () => {
  // Play from where it stopped: the whole track goes on.
  expect(
    run(
      [
        { type: "play", time: 5 },
        { type: "tick", time: 6, playing: true },
      ],
      "stopped",
    ),
  ).toEqual({ status: "over", pauses: [] });
  // A seek outside the part ends the clip; a seek back into it plays the clip again.
  expect(
    run(
      [
        { type: "seeked", time: 60 },
        { type: "tick", time: 61, playing: true },
      ],
      "stopped",
    ).status,
  ).toBe("over");
  expect(run([{ type: "seeked", time: 0 }], "stopped").status).toBe("over");
  expect(
    run(
      [
        { type: "seeked", time: 3.5 },
        { type: "play", time: 3.5 },
        { type: "tick", time: 5, playing: true },
      ],
      "stopped",
    ),
  ).toEqual({
    status: "stopped",
    pauses: [5],
  });
});

test("a seek past the end before it stopped lets the track play on; the whole track never stops", () => {
  expect(
    run([
      { type: "seeked", time: 40 },
      { type: "tick", time: 41, playing: true },
    ]),
  ).toEqual({ status: "over", pauses: [] });
  expect(
    run([
      { type: "seeked", time: 1 },
      { type: "tick", time: 5, playing: true },
    ]),
  ).toEqual({ status: "stopped", pauses: [5] });
  expect(run([{ type: "tick", time: 5, playing: true }], "over")).toEqual({ status: "over", pauses: [] });
  // A player that does not report its seeks: found well past the end while playing, it was moved there.
  expect(
    run([
      { type: "tick", time: 4, playing: true },
      { type: "tick", time: 90, playing: true },
    ]),
  ).toEqual({ status: "over", pauses: [] });
  expect(run([{ type: "tick", time: 6.4, playing: true }])).toEqual({ status: "stopped", pauses: [6.4] });
});

test("the timer aims a little before the end, at the playback rate", () => {
  expect(msUntilEnd(clip, 3, 1)).toBe(1980);
  expect(msUntilEnd(clip, 3, 2)).toBe(980);
  expect(msUntilEnd(clip, 4.999, 1)).toBe(10);
  expect(msUntilEnd(clip, 9, 1)).toBe(10);
  expect(msUntilEnd(clip, 3, 0)).toBe(1980);
});

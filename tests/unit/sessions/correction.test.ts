// The correction policy (lib/sessions/correction.ts) as a pure function of drift and mode: nothing
// inside the band, bounded rate nudges with hysteresis, seeks only when far (farther in smooth),
// lower thresholds right after the host's change; and the drift controller (lib/sessions/drift.ts)
// running each mode against a simulated player: smooth closes a second of drift without a jump and
// never past ±3 %, strict jumps and is back in step within a second.
import { describe, expect, test } from "vitest";
import {
  type CorrectionMode,
  correctionFor,
  correctionModeOf,
  correctionModes,
  correctionPolicies,
  defaultCorrectionMode,
} from "@/lib/sessions/correction";
import { DriftController, driftOptionsFor } from "@/lib/sessions/drift";

describe("correctionFor: drift, mode → rate or seek", () => {
  test.each(correctionModes)("%s: inside the dead band, nothing (either side)", (mode) => {
    for (const drift of [0, 0.01, -0.02, correctionPolicies[mode].nudgeAbove - 0.001])
      expect(correctionFor(drift, mode)).toEqual({ action: "none", rateFactor: 1, nudging: false });
  });

  test.each(correctionModes)("%s: a small drift is nudged in the right direction, proportionally", (mode) => {
    const behind = correctionFor(0.1, mode);
    const ahead = correctionFor(-0.1, mode);
    expect(behind.action).toBe("nudge");
    expect(behind.rateFactor).toBeGreaterThan(1);
    expect(ahead.rateFactor).toBeLessThan(1);
    expect(behind.rateFactor - 1).toBeCloseTo(1 - ahead.rateFactor, 10);
    expect(correctionFor(0.08, mode).rateFactor).toBeLessThan(correctionFor(0.1, mode).rateFactor + 1e-12);
  });

  test("bounds: smooth never moves the rate past ±3 %, strict past ±5 %", () => {
    const bounds: Record<CorrectionMode, number> = { smooth: 0.03, strict: 0.05 };
    for (const mode of correctionModes) {
      const limit = correctionPolicies[mode].seekAbove;
      for (let drift = -limit; drift <= limit; drift += 0.01) {
        const { rateFactor } = correctionFor(drift, mode, { nudging: true });
        expect(Math.abs(rateFactor - 1)).toBeLessThanOrEqual(bounds[mode] + 1e-12);
      }
    }
  });

  test("hysteresis: a nudge starts above the band and, once started, goes on until well inside it", () => {
    const { nudgeAbove, settleBelow } = correctionPolicies.smooth;
    const between = (nudgeAbove + settleBelow) / 2;
    expect(correctionFor(between, "smooth", { nudging: false }).action).toBe("none");
    expect(correctionFor(between, "smooth", { nudging: true })).toMatchObject({ action: "nudge", nudging: true });
    expect(correctionFor(settleBelow / 2, "smooth", { nudging: true })).toEqual({ action: "none", rateFactor: 1, nudging: false });
  });

  test("seeks only when far: smooth rides out 1.5 s by rate, strict seeks past 0.5 s", () => {
    expect(correctionFor(1.5, "smooth").action).toBe("nudge");
    expect(correctionFor(-1.9, "smooth").action).toBe("nudge");
    expect(correctionFor(2.1, "smooth").action).toBe("seek");
    expect(correctionFor(0.45, "strict").action).toBe("nudge");
    expect(correctionFor(0.6, "strict").action).toBe("seek");
    expect(correctionFor(-0.6, "strict").action).toBe("seek");
  });

  test("right after the host's change, a smaller drift is jumped rather than crept to", () => {
    expect(correctionFor(0.4, "smooth").action).toBe("nudge");
    expect(correctionFor(0.4, "smooth", { afterChange: true }).action).toBe("seek");
    expect(correctionFor(0.2, "smooth", { afterChange: true }).action).toBe("seek");
    expect(correctionFor(0.1, "smooth", { afterChange: true }).action).toBe("seek");
    expect(correctionFor(0.07, "smooth", { afterChange: true }).action).toBe("nudge");
    expect(correctionFor(0.07, "strict", { afterChange: true }).action).toBe("seek");
  });

  test("a player whose rate can't be set is never nudged, and seeked only past a wider threshold", () => {
    expect(correctionFor(0.3, "strict", { canNudge: false })).toEqual({ action: "none", rateFactor: 1, nudging: false });
    expect(correctionFor(0.7, "strict", { canNudge: false }).action).toBe("none");
    expect(correctionFor(0.9, "strict", { canNudge: false }).action).toBe("seek");
    expect(correctionFor(2.2, "smooth", { canNudge: false }).action).toBe("none");
    expect(correctionFor(2.6, "smooth", { canNudge: false }).action).toBe("seek");
  });

  test("strict corrects tighter than smooth everywhere", () => {
    const [smooth, strict] = [correctionPolicies.smooth, correctionPolicies.strict];
    expect(strict.nudgeAbove).toBeLessThan(smooth.nudgeAbove);
    expect(strict.settleBelow).toBeLessThan(smooth.settleBelow);
    expect(strict.seekAbove).toBeLessThan(smooth.seekAbove);
    expect(strict.maxNudge).toBeGreaterThan(smooth.maxNudge);
  });

  test("a drift that is no number is seeked (the player's position is unknown)", () => {
    expect(correctionFor(Number.NaN, "smooth").action).toBe("seek");
  });

  test("a stored choice is read back; anything else is the default, smooth", () => {
    expect(defaultCorrectionMode).toBe("smooth");
    expect(correctionModeOf("strict")).toBe("strict");
    expect(correctionModeOf("smooth")).toBe("smooth");
    for (const junk of [null, undefined, "", "STRICT", "fast", 1]) expect(correctionModeOf(junk)).toBe("smooth");
  });
});

/** A player off the timeline by `start` s, corrected by a controller in `mode` every 50 ms; seeks land after `seekCostMs`. */
function run(mode: CorrectionMode, start: number, { seconds = 60, seekCostMs = 60, fresh = false } = {}) {
  const controller = new DriftController(driftOptionsFor(mode));
  let now = 0;
  let target = 30;
  let actual = target - start;
  let rate = 1;
  let frozenUntil = -1;
  const rates: number[] = [];
  const drifts: number[] = [];
  let seeks = 0;
  // Not just after a change: the window for the lower threshold has passed.
  if (!fresh) controller.decide({ actual: target, target, rate: 1, playing: true, now: -10_000, canNudge: true });
  for (let t = 0; t < (seconds * 1000) / 50; t++) {
    now += 50;
    target += 0.05;
    if (now >= frozenUntil) actual += 0.05 * rate;
    const decision = controller.decide({ actual, target, rate: 1, playing: true, now, canNudge: true });
    if (decision.kind === "seek") {
      seeks++;
      actual = decision.to;
      frozenUntil = now + seekCostMs;
    }
    rate = decision.rate;
    rates.push(rate);
    drifts.push(target - actual);
  }
  return { rates, drifts, seeks };
}

describe("the drift controller in each mode", () => {
  test("smooth: a second behind is closed by rate alone, never past ±3 %, and it settles at the nominal rate", () => {
    const { rates, drifts, seeks } = run("smooth", 1);
    expect(seeks).toBe(0);
    expect(Math.max(...rates)).toBeLessThanOrEqual(1.03 + 1e-9);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0.97 - 1e-9);
    expect(Math.abs(drifts.at(-1)!)).toBeLessThan(0.04);
    expect(rates.at(-1)).toBe(1);
  });

  test("strict: a second behind is seeked, and in step within a second", () => {
    const { drifts, seeks } = run("strict", 1, { seconds: 5 });
    expect(seeks).toBeGreaterThanOrEqual(1);
    expect(Math.abs(drifts[20])).toBeLessThan(0.1);
  });

  test("smooth, just after the host's change: a follower 0.5 s off lands by one seek", () => {
    const { drifts, seeks } = run("smooth", 0.5, { seconds: 5, fresh: true });
    expect(seeks).toBe(1);
    expect(Math.abs(drifts.at(-1)!)).toBeLessThan(0.06);
  });

  test("smooth, just after the host's change: a seek that lands a quarter second off is followed by another, not by seconds of nudging", () => {
    const controller = new DriftController(driftOptionsFor("smooth"));
    let now = 0;
    let target = 60;
    let actual = 20; // the host jumped to 60 s
    let rate = 1;
    let seeks = 0;
    const drifts: number[] = [];
    for (let t = 0; t < 80; t++) {
      now += 50;
      target += 0.05;
      actual += 0.05 * rate;
      const decision = controller.decide({ actual, target, rate: 1, playing: true, now, canNudge: true });
      if (decision.kind === "seek") actual = decision.to - (++seeks === 1 ? 0.25 : 0); // the first lands 250 ms behind
      rate = decision.rate;
      drifts.push(target - actual);
    }
    expect(seeks).toBe(2);
    // the second seek, 1.2 s after the first (the cooldown), already aims ahead by what the first taught
    expect(Math.abs(drifts[30])).toBeLessThan(0.2);
    expect(Math.abs(drifts.at(-1)!)).toBeLessThan(0.1);
  });

  test("smooth, just after the host's change: a player that reads in step while it starts, then falls behind by its start-up, is seeked, not nudged for seconds", () => {
    const controller = new DriftController(driftOptionsFor("smooth"));
    let now = 0;
    let target = 0.02; // the next post, started as its row arrived
    let actual = 0;
    let startsAt = 200; // its sound under way only after 200 ms
    const decisions: string[] = [];
    for (let t = 0; t < 20; t++) {
      if (t > 0) {
        now += 50;
        target += 0.05;
        if (now > startsAt) actual += 0.05;
      }
      const decision = controller.decide({ actual, target, rate: 1, playing: true, now, canNudge: true });
      decisions.push(decision.kind);
      if (decision.kind === "seek") {
        actual = decision.to;
        startsAt = now;
      }
    }
    expect(decisions[0]).toBe("none"); // in step, as it first reads
    expect(decisions.filter((kind) => kind === "seek")).toHaveLength(1);
    expect(Math.abs(target - actual)).toBeLessThan(0.04);
  });

  test("a mode changed on the way applies from the next decision", () => {
    const controller = new DriftController(driftOptionsFor("smooth"));
    controller.decide({ actual: 10, target: 10, rate: 1, playing: true, now: -10_000, canNudge: true });
    expect(controller.decide({ actual: 10, target: 11, rate: 1, playing: true, now: 0, canNudge: true }).kind).toBe("nudge");
    controller.configure(driftOptionsFor("strict"));
    expect(controller.decide({ actual: 10, target: 11, rate: 1, playing: true, now: 50, canNudge: true }).kind).toBe("seek");
  });
});

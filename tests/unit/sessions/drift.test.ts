// The drift controller against simulated players: small drift closes by rate without seeking;
// large drift seeks once, and seeks that land late teach it a lead; a player that never lands
// where asked is not seeked in a loop; players whose rate can't be set are only seeked, later.
import { describe, expect, test } from "vitest";
import { DriftController, type DriftDecision } from "@/lib/sessions/drift";

/** A media element: plays at its rate; a seek freezes it for `seekCostMs`, then it lands where asked (plus `missBy`). */
function simulate({
  start,
  seekCostMs = 0,
  missBy = 0,
  canNudge = true,
  seconds = 20,
  stepMs = 50,
}: {
  start: number;
  seekCostMs?: number;
  missBy?: number;
  canNudge?: boolean;
  seconds?: number;
  stepMs?: number;
}) {
  const controller = new DriftController();
  let now = 0;
  let target = 10;
  let actual = target - start;
  let rate = 1;
  let frozenUntil = -1;
  const decisions: DriftDecision[] = [];
  const drifts: number[] = [];
  for (let t = 0; t < (seconds * 1000) / stepMs; t++) {
    now += stepMs;
    target += stepMs / 1000;
    if (now >= frozenUntil) actual += (stepMs / 1000) * rate;
    const decision = controller.decide({ actual, target, rate: 1, playing: true, now, canNudge });
    decisions.push(decision);
    if (decision.kind === "seek") {
      actual = decision.to + missBy;
      frozenUntil = now + seekCostMs;
    }
    rate = decision.rate;
    drifts.push(target - actual);
  }
  return { decisions, drifts, controller, seeks: decisions.filter((d) => d.kind === "seek").length };
}

describe("small drift", () => {
  test("closes by a bounded rate nudge, without a seek, and settles back to the nominal rate", () => {
    const { decisions, drifts, seeks } = simulate({ start: 0.2 });
    expect(seeks).toBe(0);
    expect(Math.max(...decisions.map((d) => d.rate))).toBeLessThanOrEqual(1.1 + 1e-9);
    expect(Math.abs(drifts.at(-1)!)).toBeLessThan(0.04);
    expect(decisions.at(-1)!.rate).toBe(1);
  });

  test("ahead of the timeline: plays slower", () => {
    const { decisions } = simulate({ start: -0.2, seconds: 1 });
    expect(decisions[0]).toMatchObject({ kind: "nudge" });
    expect(decisions[0].rate).toBeLessThan(1);
    expect(decisions[0].rate).toBeGreaterThanOrEqual(0.9);
  });

  test("within the dead band: nothing", () => {
    const { decisions } = simulate({ start: 0.02, seconds: 0.5 });
    expect(decisions.every((d) => d.kind === "none" && d.rate === 1)).toBe(true);
  });

  test("hysteresis: once nudging, it keeps on until well inside the band", () => {
    const controller = new DriftController();
    expect(controller.decide({ actual: 0, target: 0.05, rate: 1, playing: true, now: 0, canNudge: true }).kind).toBe("nudge");
    expect(controller.decide({ actual: 0, target: 0.03, rate: 1, playing: true, now: 50, canNudge: true }).kind).toBe("nudge");
    expect(controller.decide({ actual: 0, target: 0.01, rate: 1, playing: true, now: 100, canNudge: true }).kind).toBe("none");
    expect(controller.decide({ actual: 0, target: 0.03, rate: 1, playing: true, now: 150, canNudge: true }).kind).toBe("none");
  });
});

describe("large drift", () => {
  test("seeks once, then closes the rest by rate", () => {
    const { seeks, drifts } = simulate({ start: 3 });
    expect(seeks).toBe(1);
    expect(Math.abs(drifts.at(-1)!)).toBeLessThan(0.04);
  });

  test("seeks that land late teach a lead, so later seeks land closer", () => {
    const controller = new DriftController();
    let now = 0;
    // Three jumps of the timeline; each seek lands 300 ms late (the media was frozen that long).
    const misses: number[] = [];
    for (let jump = 0; jump < 3; jump++) {
      now += 10_000;
      const target = 100 * (jump + 1);
      const decision = controller.decide({ actual: 0, target, rate: 1, playing: true, now, canNudge: true });
      expect(decision.kind).toBe("seek");
      const landed = (decision as { to: number }).to;
      // 300 ms later, the media (frozen while seeking) is at `landed`; the timeline moved on by 0.3 s.
      now += 300;
      misses.push(target + 0.3 - landed);
      controller.decide({ actual: landed, target: target + 0.3, rate: 1, playing: true, now, canNudge: true });
    }
    expect(misses[0]).toBeCloseTo(0.3, 6);
    expect(Math.abs(misses[2])).toBeLessThan(misses[0] / 2);
    expect(controller.lead).toBeGreaterThan(0.1);
    expect(controller.lead).toBeLessThanOrEqual(1);
  });

  test("a player that never lands where asked is not seeked in a loop", () => {
    const { seeks } = simulate({ start: 5, missBy: -2, seconds: 30 });
    // Cooldowns double (1.2 s, 2.4 s, 4.8 s, 9.6 s, then 10 s): a handful of seeks in 30 s, not hundreds.
    expect(seeks).toBeGreaterThan(1);
    expect(seeks).toBeLessThanOrEqual(6);
  });
});

describe("players whose rate cannot be set finely", () => {
  test("never nudge; seek only past the wider threshold", () => {
    const small = simulate({ start: 0.6, canNudge: false, seconds: 2 });
    expect(small.seeks).toBe(0);
    expect(small.decisions.every((d) => d.kind === "none" && d.rate === 1)).toBe(true);
    const large = simulate({ start: 1.2, canNudge: false, seconds: 5 });
    expect(large.seeks).toBe(1);
    expect(large.decisions.some((d) => d.kind === "nudge")).toBe(false);
  });
});

describe("paused", () => {
  test("lands exactly where the host paused, without a lead, and not again and again", () => {
    const controller = new DriftController();
    const first = controller.decide({ actual: 4, target: 12.5, rate: 1, playing: false, now: 0, canNudge: true });
    expect(first).toMatchObject({ kind: "seek", to: 12.5 });
    expect(controller.decide({ actual: 4, target: 12.5, rate: 1, playing: false, now: 100, canNudge: true }).kind).toBe("none");
    expect(controller.decide({ actual: 12.5, target: 12.5, rate: 1, playing: false, now: 1_000, canNudge: true }).kind).toBe("none");
  });
});

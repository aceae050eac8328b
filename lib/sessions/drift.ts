import { type CorrectionMode, type CorrectionPolicy, correctionFor, correctionPolicies } from "./correction";

/**
 * Keeps a player on the session's timeline. Each tick compares where the player is (`actual`) with
 * where the timeline is (`target`), both in seconds of media, and decides:
 *
 * - nothing: within the dead band, play at the nominal rate;
 * - a rate nudge: a small drift is closed smoothly by playing a little faster or slower,
 *   proportionally to the drift and bounded (±maxNudge); hysteresis (start above `nudgeAbove`,
 *   stop below `settleBelow`) keeps it from toggling around the band's edge;
 * - a seek: a drift too large to close by rate (a lower threshold just after the host's change).
 * Which of the three is the policy's pure decision (./correction.ts: correctionFor); what the
 * controller adds is memory: the hysteresis, the seek lead and the cooldown. A seek takes time to land (the media element
 *   seeks, buffers and resumes), so the target is led by a learned amount, measured from where
 *   past seeks landed; after a seek, no other for a cooldown that doubles while seeks keep
 *   missing, so it can never loop.
 *
 * Players whose rate cannot be set finely (some embeds offer a few fixed speeds) are only ever
 * seeked, with a wider threshold (their timing is also coarser).
 */

export interface DriftOptions extends CorrectionPolicy {
  /** No seek within this long after the last (ms); doubles per consecutive seek. */
  seekCooldownMs: number;
  maxSeekCooldownMs: number;
  /** The seek lead is learned within [0, maxSeekLead] seconds. */
  maxSeekLead: number;
  /** How long after a reset (the host's change) `changeSeekAbove` applies (ms). */
  changeWindowMs: number;
}

/**
 * The controller's first policy (±10 % nudges, seeks past 0.5 s, no lower threshold after a change):
 * what a controller made without options does. The session player uses a listener's mode
 * (./correction.ts) instead; `npm run bench:sync` still runs this one to compare.
 */
export const baselineDriftOptions: DriftOptions = {
  maxNudge: 0.1,
  gain: 1,
  nudgeAbove: 0.04,
  settleBelow: 0.012,
  seekAbove: 0.5,
  coarseSeekAbove: 0.8,
  changeSeekAbove: Infinity,
  seekCooldownMs: 1_200,
  maxSeekCooldownMs: 10_000,
  maxSeekLead: 1,
  changeWindowMs: 2_000,
};

/** A controller's options for a listener's correction mode (./correction.ts). */
export const driftOptionsFor = (mode: CorrectionMode): Partial<DriftOptions> => correctionPolicies[mode];

export type DriftDecision =
  | { kind: "none"; rate: number }
  | { kind: "nudge"; rate: number; drift: number }
  | { kind: "seek"; to: number; rate: number; drift: number };

export interface DriftInput {
  /** The player's position (s). */
  actual: number;
  /** The timeline's position (s). */
  target: number;
  /** The timeline's rate. */
  rate: number;
  /** Whether the timeline is playing (paused: only seeks, to the exact position). */
  playing: boolean;
  /** Local ms. */
  now: number;
  /** Whether the player's rate can be set finely. */
  canNudge: boolean;
}

/** How long after a change a player must have been running before "in step" ends the change's window (ms). */
const changeSettleMs = 400;

export class DriftController {
  private nudging = false;
  private lastSeekAt = -Infinity;
  private cooldownMs: number;
  private seekLead = 0;
  /** A seek waiting to be measured: where it aimed, without the lead. */
  private pendingSeek: { at: number } | null = null;
  /** Until when the host's change counts as just made (local ms); null until the first decision after a reset starts it. */
  private changeUntil: number | null = null;
  /** When that change's first decision was (local ms). */
  private changeFrom = 0;
  options: DriftOptions;

  constructor(options: Partial<DriftOptions> = {}) {
    this.options = { ...baselineDriftOptions, ...options };
    this.cooldownMs = this.options.seekCooldownMs;
  }

  /** Another policy from now on (a listener switching modes); what was learned is kept. */
  configure(options: Partial<DriftOptions>): void {
    this.options = { ...this.options, ...options };
  }

  /** What the controller has learned a seek needs to aim ahead by (s). */
  get lead(): number {
    return this.seekLead;
  }

  /** Forget momentum (a new post, a new state from the host): the next tick decides afresh. */
  reset(): void {
    this.nudging = false;
    this.pendingSeek = null;
    this.lastSeekAt = -Infinity;
    this.cooldownMs = this.options.seekCooldownMs;
    this.changeUntil = null;
  }

  decide({ actual, target, rate, playing, now, canNudge }: DriftInput): DriftDecision {
    const o = this.options;
    const drift = target - actual; // > 0: behind
    const size = Math.abs(drift);

    if (!playing) {
      this.nudging = false;
      this.pendingSeek = null;
      // Paused: land exactly where the host paused (no lead, no cooldown: nothing moves).
      if (size <= 0.05 || now - this.lastSeekAt < 500) return { kind: "none", rate };
      this.lastSeekAt = now;
      return { kind: "seek", to: target, rate, drift };
    }

    // The first tick after a seek has landed tells how far behind seeks land: learn the lead.
    if (this.pendingSeek && now - this.pendingSeek.at >= 250) {
      if (size < 1.5) this.seekLead = clamp(this.seekLead + drift * 0.6, 0, o.maxSeekLead);
      this.pendingSeek = null;
    }

    if (this.changeUntil === null) {
      this.changeUntil = now + o.changeWindowMs;
      this.changeFrom = now;
    }
    const afterChange = now < this.changeUntil;
    const seekAbove = Math.min(canNudge ? o.seekAbove : o.coarseSeekAbove, afterChange ? o.changeSeekAbove : Infinity);
    const decided = correctionFor(drift, o, { nudging: this.nudging, canNudge, afterChange });
    if (decided.action === "seek") {
      this.nudging = false;
      if (now - this.lastSeekAt < this.cooldownMs) {
        // Waiting out the cooldown: still help with the rate where it can.
        return canNudge ? { kind: "nudge", rate: rate * (1 + Math.sign(drift) * o.maxNudge), drift } : { kind: "none", rate };
      }
      // A seek soon after the last one missed: wait longer before the next.
      this.cooldownMs = now - this.lastSeekAt < this.cooldownMs * 3 ? Math.min(this.cooldownMs * 2, o.maxSeekCooldownMs) : o.seekCooldownMs;
      this.lastSeekAt = now;
      this.pendingSeek = { at: now };
      return { kind: "seek", to: target + this.seekLead * rate, rate, drift };
    }
    if (size < seekAbove / 2 && now - this.lastSeekAt > this.cooldownMs * 3) this.cooldownMs = o.seekCooldownMs;
    this.nudging = decided.nudging;
    if (decided.action === "none") {
      // In step: the change is absorbed, drift from now on is ordinary drift. Not in the first
      // moments, though: a player just told to start reads where it was until its sound is under
      // way, and would look in step only to fall behind by its start-up time.
      if (now - this.changeFrom >= changeSettleMs) this.changeUntil = Math.min(this.changeUntil, now);
      return { kind: "none", rate };
    }
    return { kind: "nudge", rate: rate * decided.rateFactor, drift };
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

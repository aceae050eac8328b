/**
 * How a listener's player is kept on the session's timeline without anyone hearing it: the policy
 * of each correction mode, and the one pure decision the drift controller (./drift.ts) asks of it.
 *
 * Music is unforgiving: a seek is a click in the sound, and a rate change without pitch preservation
 * is a detuned note (1 % is about 17 cents, clearly heard on a held tone). So:
 * - inside a dead band nothing happens, and once nudging, it keeps on until well inside it
 *   (hysteresis), so the rate never flickers around the band's edge;
 * - a small drift is closed by a rate nudge, proportional and bounded (±3 % smooth, ±5 % strict),
 *   always with the pitch preserved (the player sets `preservesPitch`), so only the tempo moves, by
 *   less than a person notices over the few seconds it lasts;
 * - only a drift too large to close that way is seeked: past 2 s in smooth (it would rather take a
 *   minute to catch up than jump), past 0.5 s in strict;
 * - right after the host's own change (play, seek, the next post) the listener hears a jump anyway,
 *   so a much smaller threshold applies until the player is in step (or for 2 s): a follower lands
 *   where the host went, seeking again if the first seek landed off, instead of nudging its way
 *   there for seconds.
 * Each listener picks smooth (the default) or strict; "Resync" jumps to the live position at once.
 */

export type CorrectionMode = "smooth" | "strict";

export const correctionModes: readonly CorrectionMode[] = ["smooth", "strict"];

export const defaultCorrectionMode: CorrectionMode = "smooth";

export interface CorrectionPolicy {
  /** Largest change of the rate, as a fraction of the nominal rate. */
  maxNudge: number;
  /** Rate change per second of drift (×nominal), before the bound. */
  gain: number;
  /** Start nudging above this drift (s). */
  nudgeAbove: number;
  /** Once nudging, stop within this drift (s). */
  settleBelow: number;
  /** Seek above this drift (s), when the rate can be nudged. */
  seekAbove: number;
  /** Seek above this drift (s), when it cannot (some embeds offer a few fixed speeds). */
  coarseSeekAbove: number;
  /** Right after the host's change: seek above this drift (s). */
  changeSeekAbove: number;
}

export const correctionPolicies: Readonly<Record<CorrectionMode, Readonly<CorrectionPolicy>>> = {
  smooth: { maxNudge: 0.03, gain: 0.6, nudgeAbove: 0.04, settleBelow: 0.015, seekAbove: 2, coarseSeekAbove: 2.5, changeSeekAbove: 0.08 },
  strict: { maxNudge: 0.05, gain: 1.2, nudgeAbove: 0.025, settleBelow: 0.008, seekAbove: 0.5, coarseSeekAbove: 0.8, changeSeekAbove: 0.06 },
};

export interface CorrectionContext {
  /** Nudging already (the hysteresis): the decision of the previous tick. */
  nudging?: boolean;
  /** Whether the player's rate can be set finely (an HTML media element can; some embeds can't). */
  canNudge?: boolean;
  /** Just after the host's change (play, seek, next): a jump is expected, the seek threshold is lower. */
  afterChange?: boolean;
}

export interface Correction {
  action: "none" | "nudge" | "seek";
  /** Multiply the timeline's rate by this: within [1 − maxNudge, 1 + maxNudge]; 1 unless nudging. */
  rateFactor: number;
  /** Whether the player is nudging after this decision (pass it back as `nudging` next tick). */
  nudging: boolean;
}

/**
 * What to do about `drift` (s; timeline − player: > 0 the player is behind) under `mode`'s policy
 * (or a policy of its own). Pure: the same input always gives the same answer.
 */
export function correctionFor(
  drift: number,
  mode: CorrectionMode | CorrectionPolicy,
  { nudging = false, canNudge = true, afterChange = false }: CorrectionContext = {},
): Correction {
  const policy = typeof mode === "string" ? correctionPolicies[mode] : mode;
  const size = Math.abs(drift);
  if (!Number.isFinite(drift)) return { action: "seek", rateFactor: 1, nudging: false };
  const seekAbove = Math.min(canNudge ? policy.seekAbove : policy.coarseSeekAbove, afterChange ? policy.changeSeekAbove : Infinity);
  if (size > seekAbove) return { action: "seek", rateFactor: 1, nudging: false };
  if (!canNudge) return { action: "none", rateFactor: 1, nudging: false };
  if (nudging ? size < policy.settleBelow : size < policy.nudgeAbove) return { action: "none", rateFactor: 1, nudging: false };
  const change = Math.min(policy.maxNudge, Math.max(-policy.maxNudge, drift * policy.gain));
  return { action: "nudge", rateFactor: 1 + change, nudging: true };
}

/** A stored choice, or the default for anything else. */
export const correctionModeOf = (value: unknown): CorrectionMode =>
  correctionModes.includes(value as CorrectionMode) ? (value as CorrectionMode) : defaultCorrectionMode;

import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";

// The rules of bans, timeouts and slow mode as Postgres holds them
// (supabase/migrations/20261129000200_bans.sql, …000300_timeouts.sql, …000400_slow_mode_…sql): the
// forms check them first, the server actions parse them again, and the database decides.

export const moderationLimits = {
  reasonMax: 500,
  timeoutMinMinutes: 10,
  timeoutMaxMinutes: 28 * 24 * 60,
  slowModeMinSeconds: 5,
  slowModeMaxSeconds: 3600,
  reportThresholdMin: 1,
  reportThresholdMax: 100,
} as const;

export const moderationRuleMessages = {
  notInRoom: "That person or room no longer exists.",
  reasonTooLong: `Keep the reason under ${moderationLimits.reasonMax} characters`,
  banEndsInFuture: "A ban ends in the future — or leave the end empty to ban for good",
  timeoutLength: "A timeout lasts from 10 minutes to 28 days",
  slowModeRange: "Slow mode is off (0) or from 5 seconds to 1 hour",
  thresholdRange: "The report threshold is from 1 to 100 people",
} as const;

/** Timeout lengths a moderator picks from (minutes). */
export const timeoutChoices = [
  { minutes: 10, label: "10 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 7 * 24 * 60, label: "1 week" },
  { minutes: 28 * 24 * 60, label: "28 days" },
] as const;

/** Slow mode settings a moderator picks from (seconds; 0 is off). */
export const slowModeChoices = [
  { seconds: 0, label: "Off" },
  { seconds: 5, label: "5 seconds" },
  { seconds: 10, label: "10 seconds" },
  { seconds: 30, label: "30 seconds" },
  { seconds: 60, label: "1 minute" },
  { seconds: 300, label: "5 minutes" },
  { seconds: 900, label: "15 minutes" },
  { seconds: 3600, label: "1 hour" },
] as const;

/** Whether Postgres accepts this slow mode: 0 (off) or 5 to 3600 whole seconds. */
export function isSlowModeSeconds(seconds: number): boolean {
  return (
    Number.isInteger(seconds) &&
    (seconds === 0 || (seconds >= moderationLimits.slowModeMinSeconds && seconds <= moderationLimits.slowModeMaxSeconds))
  );
}

const ids = {
  roomId: uuidField(moderationRuleMessages.notInRoom),
  userId: uuidField(moderationRuleMessages.notInRoom),
};
const reason = z.string().trim().max(moderationLimits.reasonMax, moderationRuleMessages.reasonTooLong).default("");

export const memberTargetSchema = z.object(ids);

/** Ban: `expiresAt` an ISO time in the future, or null/absent for good. */
export const banInputSchema = z.object({
  ...ids,
  reason,
  expiresAt: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), moderationRuleMessages.banEndsInFuture)
    .nullish()
    .transform((value) => value ?? null),
});

export const timeoutInputSchema = z.object({
  ...ids,
  minutes: z
    .number(moderationRuleMessages.timeoutLength)
    .int(moderationRuleMessages.timeoutLength)
    .min(moderationLimits.timeoutMinMinutes, moderationRuleMessages.timeoutLength)
    .max(moderationLimits.timeoutMaxMinutes, moderationRuleMessages.timeoutLength),
  reason,
});

export const slowModeInputSchema = z.object({
  roomId: ids.roomId,
  seconds: z.number(moderationRuleMessages.slowModeRange).refine(isSlowModeSeconds, moderationRuleMessages.slowModeRange),
});

export const reportThresholdInputSchema = z.object({
  roomId: ids.roomId,
  threshold: z
    .number(moderationRuleMessages.thresholdRange)
    .int(moderationRuleMessages.thresholdRange)
    .min(moderationLimits.reportThresholdMin, moderationRuleMessages.thresholdRange)
    .max(moderationLimits.reportThresholdMax, moderationRuleMessages.thresholdRange),
});

export type BanInput = z.input<typeof banInputSchema>;
export type TimeoutInput = z.input<typeof timeoutInputSchema>;

// Postgres' refusals of moderation, in the words people read, with times in the reader's own zone.
//
// The database cannot know where its reader is, so the refusals carry their time as ISO 8601 (UTC)
// in the error's `details` and name what they are in `hint`:
//   timed out   — 42501, hint "timed_out", details = when the timeout ends
//   slow mode   — PT429, hint "slow_mode", details = when the next comment may go
//   banned      — 42501, details = when the ban ends, or "permanent"
//   a wallet a ban holds against — 42501, details "wallet"
// The moderation functions' own refusals (who may ban whom, the allowed values) are sentences and
// are shown as they are.
import { messages } from "@/lib/messages";

export interface DbError {
  code?: string;
  message: string;
  details?: string | null;
  hint?: string | null;
}

export interface TimeWords {
  /** The reader's time zone (IANA); the runtime's when absent. */
  timeZone?: string;
  /** Now, in ms (tests pass their own). */
  now?: number;
  locale?: string;
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function dayKey(date: Date, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/**
 * A moment ahead as people say it: "21:40" today, "tomorrow at 21:40", "Sat 5 Dec at 21:40" this
 * year, "5 Dec 2027 at 21:40" after.
 */
export function untilWords(iso: string, options: TimeWords = {}): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const now = new Date(options.now ?? Date.now());
  const { timeZone } = options;
  const locale = options.locale ?? "en-GB";
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
  if (dayKey(at, timeZone) === dayKey(now, timeZone)) return time;
  const tomorrow = new Date(now.getTime() + 24 * 60 * 60 * 1000);
  if (dayKey(at, timeZone) === dayKey(tomorrow, timeZone)) return `tomorrow at ${time}`;
  const sameYear =
    new Intl.DateTimeFormat("en", { timeZone, year: "numeric" }).format(at) ===
    new Intl.DateTimeFormat("en", { timeZone, year: "numeric" }).format(now);
  const day = new Intl.DateTimeFormat(
    locale,
    sameYear
      ? { timeZone, weekday: "short", day: "numeric", month: "short" }
      : { timeZone, day: "numeric", month: "short", year: "numeric" },
  ).format(at);
  return `${day.replace(",", "")} at ${time}`;
}

/** A wait in words: "12 seconds", "1 minute", "3 minutes", "1 hour" (rounded up). */
export function waitWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return plural(seconds, "second");
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), "minute");
  return plural(Math.ceil(seconds / 3600), "hour");
}

export const moderationMessages = {
  timedOut: (until: string) => `You're timed out until ${until} — you can still read and listen.`,
  slowMode: (wait: string) => `Slow mode is on in this room — you can comment again in ${wait}.`,
  slowModeNow: "Slow mode is on in this room — you can comment again now.",
  bannedUntil: (until: string) => `You were banned from this room until ${until}.`,
  bannedForGood: "You were banned from this room.",
  walletBarred: "This wallet was linked to an account banned from this room, so it can't let anyone in.",
  failed: messages.failed,
} as const;

/**
 * A timeout, slow mode or ban refusal in the reader's words and time zone; null for any other error
 * (the caller maps it as before).
 */
export function moderationRefusal(error: DbError | null | undefined, options: TimeWords = {}): string | null {
  if (!error) return null;
  const details = error.details ?? "";
  if (error.code === "42501" && (error.hint === "timed_out" || /^You're timed out until/.test(error.message))) {
    return isoPattern.test(details) ? moderationMessages.timedOut(untilWords(details, options)) : error.message;
  }
  if (error.code === "PT429" && (error.hint === "slow_mode" || /^Slow mode is on/.test(error.message))) {
    if (!isoPattern.test(details)) return error.message;
    const left = Date.parse(details) - (options.now ?? Date.now());
    return left > 0 ? moderationMessages.slowMode(waitWords(left)) : moderationMessages.slowModeNow;
  }
  if (error.code === "42501" && /^You were banned from this room/.test(error.message)) {
    return isoPattern.test(details) ? moderationMessages.bannedUntil(untilWords(details, options)) : moderationMessages.bannedForGood;
  }
  if (error.code === "42501" && details === "wallet") return moderationMessages.walletBarred;
  return null;
}

/**
 * What a moderation action's caller reads when the database refuses it: the refusal above, or the
 * function's own sentence (who may act on whom, the allowed values), or a generic line for anything
 * not written for people (a constraint name, a network error).
 */
export function moderationActionError(error: DbError, fallback: string = messages.failed): string {
  const refusal = moderationRefusal(error);
  if (refusal) return refusal;
  if (!error.code || /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message)) return messages.unreachable;
  if (error.code === "PGRST301" || error.code === "PGRST303" || /jwt/i.test(error.message)) return messages.sessionEnded;
  if (["42501", "22023", "P0001", "PT429"].includes(error.code) && /^[A-Z][^_]*$/.test(error.message)) {
    return /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  }
  return fallback;
}

// The caller's standing in a room (public.my_room_standing): banned, timed out, slow mode. Plain
// functions the pages and the composer share: what to say, and how long until the next comment.
import { moderationMessages, type TimeWords, untilWords, waitWords } from "./errors";

/** A row of public.my_room_standing(room_id). */
export interface StandingRow {
  banned: boolean | null;
  banned_until: string | null;
  ban_reason: string | null;
  timed_out_until: string | null;
  timeout_reason: string | null;
  slow_mode_seconds: number | null;
  slow_mode_applies: boolean | null;
  next_comment_at: string | null;
}

export interface RoomStanding {
  banned: boolean;
  /** When the ban ends (ISO); null while banned means for good. */
  bannedUntil: string | null;
  banReason: string;
  timedOutUntil: string | null;
  timeoutReason: string;
  slowModeSeconds: number;
  /** Slow mode is on and the caller is not exempt (owner and moderators are). */
  slowModeApplies: boolean;
  /** When the caller's next comment may go (ISO); null: now. */
  nextCommentAt: string | null;
}

export const goodStanding: RoomStanding = {
  banned: false,
  bannedUntil: null,
  banReason: "",
  timedOutUntil: null,
  timeoutReason: "",
  slowModeSeconds: 0,
  slowModeApplies: false,
  nextCommentAt: null,
};

export function standingFromRow(row: StandingRow | null | undefined): RoomStanding {
  if (!row) return goodStanding;
  return {
    banned: row.banned === true,
    bannedUntil: row.banned ? row.banned_until : null,
    banReason: row.ban_reason ?? "",
    timedOutUntil: row.timed_out_until,
    timeoutReason: row.timeout_reason ?? "",
    slowModeSeconds: row.slow_mode_seconds ?? 0,
    slowModeApplies: row.slow_mode_applies === true,
    nextCommentAt: row.next_comment_at,
  };
}

/** Whether the timeout still holds at `now` (a timeout ends by itself). */
export function isTimedOut(standing: RoomStanding, now = Date.now()): boolean {
  return standing.timedOutUntil !== null && Date.parse(standing.timedOutUntil) > now;
}

/** Whether the ban still holds at `now`. */
export function isBanned(standing: RoomStanding, now = Date.now()): boolean {
  return standing.banned && (standing.bannedUntil === null || Date.parse(standing.bannedUntil) > now);
}

/** Ms until the caller may comment again under slow mode (0: now). */
export function slowModeWaitMs(standing: RoomStanding, now = Date.now()): number {
  if (!standing.slowModeApplies || !standing.nextCommentAt) return 0;
  return Math.max(0, Date.parse(standing.nextCommentAt) - now);
}

/** After the caller's own comment at `at` (ms), when their next may go under slow mode. */
export function afterComment(standing: RoomStanding, at = Date.now()): RoomStanding {
  if (!standing.slowModeApplies || standing.slowModeSeconds <= 0) return standing;
  return { ...standing, nextCommentAt: new Date(at + standing.slowModeSeconds * 1000).toISOString() };
}

/** The line a banned visitor reads on the room's page, or null when not banned. */
export function banLine(standing: RoomStanding, options: TimeWords = {}): string | null {
  if (!isBanned(standing, options.now)) return null;
  return standing.bannedUntil
    ? moderationMessages.bannedUntil(untilWords(standing.bannedUntil, options))
    : moderationMessages.bannedForGood;
}

/**
 * What the composer says instead of (or beside) its button: the timeout, else the slow-mode wait;
 * null when the caller may comment now.
 */
export function composerNotice(standing: RoomStanding, options: TimeWords = {}): string | null {
  const now = options.now ?? Date.now();
  if (isTimedOut(standing, now)) return moderationMessages.timedOut(untilWords(standing.timedOutUntil!, options));
  const wait = slowModeWaitMs(standing, now);
  return wait > 0 ? moderationMessages.slowMode(waitWords(wait)) : null;
}

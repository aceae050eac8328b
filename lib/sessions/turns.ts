import type { BrowserData } from "@/lib/supabase/data-client";
import { sessionErrorText, sessionMessages } from "./rpc";
import type { SessionActionResult, SessionRow } from "./types";

/**
 * DJ turns and votes to skip (supabase/migrations/20261201001000_dj_turns_and_skip_votes.sql).
 * The waitlist, the turn and the skip tally are columns of the session's row, so the page reads them
 * from the row the session's channel brings; the changes are the functions below, which say why
 * they refuse in words.
 */

export type SessionMode = "host" | "dj_turns";

/** A DJ waiting their turn, with the post they will play (null: not picked yet). */
export interface WaitlistEntry {
  userId: string;
  postId: string | null;
}

/** The waitlist as stored (a JSON array); anything malformed is left out. */
export function waitlistOf(row: Pick<SessionRow, "dj_waitlist"> | null): WaitlistEntry[] {
  const raw = row?.dj_waitlist;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) return [];
    const { user_id: userId, post_id: postId } = item as Record<string, unknown>;
    if (typeof userId !== "string") return [];
    return [{ userId, postId: typeof postId === "string" ? postId : null }];
  });
}

export const isDjTurns = (row: Pick<SessionRow, "mode"> | null): boolean => row?.mode === "dj_turns";

/** What the page shows of the turns: who plays, who is next (the first with a post picked), where the person is. */
export interface TurnsView {
  djId: string | null;
  waitlist: WaitlistEntry[];
  /** The next DJ: the first in the list with a post picked. */
  next: WaitlistEntry | null;
  /** The person's place in the list (1 is first), or null. */
  place: number | null;
  isDj: boolean;
  /** When the turn runs out (ms, server clock), while someone plays. */
  endsAtMs: number | null;
}

export function turnsView(row: SessionRow | null, selfId: string): TurnsView {
  const waitlist = waitlistOf(row);
  const djId = row && isDjTurns(row) ? row.host_id : null;
  const index = waitlist.findIndex((entry) => entry.userId === selfId);
  const endsAt = row && djId ? Date.parse(row.turn_ends_at) : NaN;
  return {
    djId,
    waitlist,
    next: waitlist.find((entry) => entry.postId !== null) ?? null,
    place: index >= 0 ? index + 1 : null,
    isDj: djId !== null && djId === selfId,
    endsAtMs: Number.isFinite(endsAt) && endsAt > 0 ? endsAt : null,
  };
}

/** The tally of votes to skip the track playing. */
export interface SkipTally {
  track: number;
  votes: number;
  /** Votes that skip it (0: nobody has voted yet; the first vote fixes it). */
  needed: number;
  voted: boolean;
}

export function skipTallyOf(row: SessionRow, selfId: string): SkipTally {
  return { track: row.track, votes: row.skip_votes, needed: row.skip_needed, voted: row.skip_voters.includes(selfId) };
}

/** "1 of 2 to skip", or how the vote would start. */
export function tallyText(tally: SkipTally, share: number): string {
  if (tally.needed === 0) return `${shareText(share)} of the people listening along skip a track`;
  return `${tally.votes} of ${tally.needed} to skip`;
}

/** A share in words: "Half", "A third", "75%". */
export function shareText(share: number): string {
  if (Math.abs(share - 0.5) < 0.005) return "Half";
  if (Math.abs(share - 1) < 0.005) return "All";
  if (Math.abs(share - 1 / 3) < 0.01) return "A third";
  if (Math.abs(share - 2 / 3) < 0.01) return "Two thirds";
  if (Math.abs(share - 0.25) < 0.005) return "A quarter";
  return `${Math.round(share * 100)}%`;
}

/** A turn's longest length in words: "10 minutes", "1 minute", "90 seconds". */
export function turnLengthText(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** Minutes and seconds left: "3:07". */
export function timeLeftText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

type Rpc = (data: BrowserData) => PromiseLike<{ data: unknown; error: { message: string; code?: string } | null }>;

async function call(data: BrowserData, request: Rpc): Promise<SessionActionResult<SessionRow>> {
  try {
    const { data: row, error } = await request(data);
    if (error) return { ok: false, error: sessionErrorText(error) };
    return { ok: true, data: row as SessionRow };
  } catch {
    return { ok: false, error: sessionMessages.unreachable };
  }
}

/** The functions of turns and votes, each answering the session's row as it then is. */
export const turnActions = {
  join: (data: BrowserData, sessionId: string, postId: string) =>
    call(data, (d) => d.rpc("join_dj_waitlist", { session_id: sessionId, post_id: postId })),
  pick: (data: BrowserData, sessionId: string, postId: string) =>
    call(data, (d) => d.rpc("pick_dj_post", { session_id: sessionId, post_id: postId })),
  leave: (data: BrowserData, sessionId: string) => call(data, (d) => d.rpc("leave_dj_waitlist", { session_id: sessionId })),
  move: (data: BrowserData, sessionId: string, djId: string, place: number) =>
    call(data, (d) => d.rpc("move_dj", { session_id: sessionId, dj_id: djId, place })),
  remove: (data: BrowserData, sessionId: string, djId: string) =>
    call(data, (d) => d.rpc("remove_dj", { session_id: sessionId, dj_id: djId })),
  endIfOver: (data: BrowserData, sessionId: string, turn: number) =>
    call(data, (d) => d.rpc("end_dj_turn_if_over", { session_id: sessionId, turn })),
  voteToSkip: (data: BrowserData, sessionId: string, track: number) =>
    call(data, (d) => d.rpc("vote_to_skip", { session_id: sessionId, track })),
};

// A session's queue as the page shows it: the host's queued posts in order, then members'
// suggestions; the person's own writes shown on top of what the session's channel says, by id.
import type { QueueEntry } from "./types";

/** What is queued (in play order) and what is suggested (oldest first). */
export interface QueueView {
  queued: QueueEntry[];
  suggested: QueueEntry[];
}

const byPlayOrder = (a: QueueEntry, b: QueueEntry) =>
  a.sort_key - b.sort_key || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
const byAge = (a: QueueEntry, b: QueueEntry) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/** Splits entries into the queue (play order, as play_next_in_session picks) and suggestions; the playing post is not in either. */
export function queueView(entries: readonly QueueEntry[], playingPostId: string | null = null): QueueView {
  const shown = entries.filter((entry) => entry.post_id !== playingPostId);
  return {
    queued: shown.filter((entry) => entry.status === "queued").sort(byPlayOrder),
    suggested: shown.filter((entry) => entry.status === "suggested").sort(byAge),
  };
}

/**
 * The person's own write, shown before the channel confirms it: `entry` is what the row will be
 * (null: deleted). It stays until the entries from the channel agree with it, or it expires.
 */
export interface PendingWrite {
  id: string;
  entry: QueueEntry | null;
  /** ms (page clock) after which the channel's view wins whatever it says. */
  expiresAt: number;
}

const agrees = (server: QueueEntry | undefined, pending: PendingWrite) =>
  pending.entry === null
    ? server === undefined
    : server !== undefined && server.status === pending.entry.status && server.sort_key === pending.entry.sort_key;

/** The entries from the channel with the person's pending writes on top; writes the channel now shows (or expired) are dropped. */
export function withPending(
  entries: readonly QueueEntry[],
  pending: readonly PendingWrite[],
  now: number,
): { entries: QueueEntry[]; pending: PendingWrite[] } {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const open = pending.filter((write) => write.expiresAt > now && !agrees(byId.get(write.id), write));
  for (const write of open) {
    if (write.entry) byId.set(write.id, write.entry);
    else byId.delete(write.id);
  }
  return { entries: [...byId.values()], pending: open };
}

/** A sort key between two neighbours' keys (either may be missing: the start or the end of the queue). */
export function sortKeyBetween(before: number | null, after: number | null): number {
  if (before === null && after === null) return 0;
  if (before === null) return (after as number) - 1;
  if (after === null) return before + 1;
  return before + (after - before) / 2;
}

/** The key that moves `id` one place up (-1) or down (+1) in the queued list; null when it cannot move. */
export function movedSortKey(queued: readonly QueueEntry[], id: string, direction: -1 | 1): number | null {
  const index = queued.findIndex((entry) => entry.id === id);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= queued.length) return null;
  // Moving up lands between the entry two above and the one above; moving down, between the one below and the one after it.
  const [before, after] = direction < 0 ? [queued[target - 1] ?? null, queued[target]] : [queued[target], queued[target + 1] ?? null];
  const key = sortKeyBetween(before?.sort_key ?? null, after?.sort_key ?? null);
  // Keys so close that the midpoint equals a neighbour (some fifty moves between the same two): no
  // key fits; the caller says so rather than writing one that changes nothing.
  if ((before && key === before.sort_key) || (after && key === after.sort_key)) return null;
  return key;
}

/** The key for the end of the queue (a post added, a suggestion accepted). */
export const lastSortKey = (queued: readonly QueueEntry[]): number => sortKeyBetween(queued.at(-1)?.sort_key ?? null, null);

/** Characters with a meaning in a LIKE pattern, escaped so a title search matches them literally. */
export const likePattern = (text: string): string => `%${text.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

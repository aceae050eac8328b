import { isDjTurns, waitlistOf } from "./turns";
import type { QueueEntry, SessionRow } from "./types";

/**
 * Gapless changes: while a post plays, the one the host's "next" would play is made ready in a
 * player of its own (an uploaded file: a second media element, loaded and paused at its start), so
 * moving on is a swap and a play rather than a file starting to load. Which post that is follows the
 * queue's order exactly as the server takes it (`play_next_in_session`: the first queued entry); a
 * guess that turns out wrong (the host played another post) only means that post loads as before.
 */

/** The post "next" would play: the first queued entry, unless it is the one playing now. */
export function nextQueuedPostId(queue: readonly QueueEntry[], playingPostId: string | null): string | null {
  const next = queue.find((entry) => entry.status === "queued")?.post_id ?? null;
  return next !== null && next !== playingPostId ? next : null;
}

/**
 * Where the session's next post comes from: in DJ turns, the next DJ's pick (the first in the
 * waitlist with a post picked, as `private.pass_turn` takes it; the queue is not used), otherwise the
 * queue. `waiting` says whether a post is still where "next" would take it from.
 */
export function nextSource(
  row: Pick<SessionRow, "mode" | "dj_waitlist"> | null,
  queue: readonly QueueEntry[],
): { next: (playingPostId: string | null) => string | null; waiting: (postId: string) => boolean } {
  if (isDjTurns(row)) {
    const picks = waitlistOf(row).flatMap((entry) => (entry.postId === null ? [] : [entry.postId]));
    return {
      next: (playing) => (picks[0] !== undefined && picks[0] !== playing ? picks[0] : null),
      waiting: (postId) => picks.includes(postId),
    };
  }
  return {
    next: (playing) => nextQueuedPostId(queue, playing),
    waiting: (postId) => queue.some((entry) => entry.post_id === postId && entry.status === "queued"),
  };
}

/**
 * What the page keeps ready, per post playing: the next queued post and, for a moment, the one that
 * was next and has just left the queue. The server takes the entry it plays out of the queue before
 * it moves the session on, and the queue's change reaches the page first: without this, the element
 * waiting for that post would go a few milliseconds before the session asks for it.
 */
export interface ReadyState {
  playing: string | null;
  next: string | null;
  /** The post that was next and is no longer queued, kept until another post plays. */
  taken: string | null;
}

export const readyAtFirst = (playing: string | null, next: string | null): ReadyState => ({ playing, next, taken: null });

/** The state once the page knows `playing` and `next` (nextQueuedPostId); `queued` says whether a post is still in the queue. */
export function readyStep(state: ReadyState, playing: string | null, next: string | null, queued: (postId: string) => boolean): ReadyState {
  if (state.playing !== playing) return readyAtFirst(playing, next);
  if (state.next === next) return state;
  const taken = state.next !== null && !queued(state.next) ? state.next : state.taken;
  return { playing, next, taken: taken === next ? null : taken };
}

/** The posts to keep waiting, at most two: the one just taken (soonest needed), then the next. */
export function readyPostIds(state: ReadyState): string[] {
  return [state.taken, state.next].filter((id, i, all): id is string => id !== null && id !== state.playing && all.indexOf(id) === i);
}

export interface Deck<P> {
  post: P;
  /** The one that plays (attached to the page's playback); the others wait, loaded, at their start. */
  active: boolean;
}

/**
 * The media elements the page keeps, by post: the playing upload, then the waiting ones. Kept in
 * this order and keyed by post, a waiting element is the very one that plays once the session moves
 * on to it (nothing is created, nothing reloads). Links play in their provider's player, so they get
 * no deck.
 */
export function decksOf<P extends { id: string; media_kind: "embed" | "upload" }>(
  playing: P | null,
  waiting: readonly (P | null)[],
): Deck<P>[] {
  const decks: Deck<P>[] = [];
  if (playing?.media_kind === "upload") decks.push({ post: playing, active: true });
  for (const post of waiting)
    if (post?.media_kind === "upload" && !decks.some((deck) => deck.post.id === post.id)) decks.push({ post, active: false });
  return decks;
}

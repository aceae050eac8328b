// The post page's moments, as a pure reducer: pages loaded in order, changes from the room's
// channel and from the person's own actions, and refetched sets after a reconnect. Everything is
// keyed by id, so an insert seen twice (the action's answer and its echo on the channel) shows once.
// Comments on the post are the list (and the timeline's markers); replies sit apart, under the
// comment they answer, oldest first.
import { compareKeys, keyOf, type Moment, type MomentKey, type MomentReaction, type MomentWithReplies } from "./types";

export interface MomentsState {
  /** Loaded comments on the post (never replies) in list order (time, general comments last, id). */
  items: Moment[];
  /** Where the next page starts (the last loaded key), or null when everything is loaded. */
  next: MomentKey | null;
  /** Replies by the id of the comment they answer, oldest first. */
  replies: Record<string, Moment[]>;
}

/** A row as the channel sends it: no author profile or reactions (kept from what is known). */
export type MomentRow = Omit<Moment, "author" | "reactions"> & Partial<Pick<Moment, "author" | "reactions">>;

export type MomentsAction =
  | { type: "page"; moments: MomentWithReplies[]; next: MomentKey | null }
  | { type: "upsert"; moment: MomentRow }
  | { type: "remove"; id: string }
  | { type: "reactionAdd"; momentId: string; reaction: MomentReaction }
  | { type: "reactionRemove"; momentId: string; reaction: { id: string } | { user_id: string; emoji: string } }
  | { type: "merge"; moments: MomentWithReplies[]; through: MomentKey | null };

const noReplies: Record<string, Moment[]> = {};

export const initialMomentsState = (moments: MomentWithReplies[], next: MomentKey | null): MomentsState =>
  upsertAll({ items: [], next, replies: noReplies }, moments);

const byKey = (a: Moment, b: Moment) => compareKeys(keyOf(a), keyOf(b));
const sortMoments = (moments: Moment[]) => [...moments].sort(byKey);
/** Replies read in the order they were written. */
const byWritten = (a: Moment, b: Moment) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function dedupe(moments: Moment[]): Moment[] {
  const seen = new Map<string, Moment>();
  for (const moment of moments) seen.set(moment.id, moment);
  return [...seen.values()];
}

/** A row over what is known of it: the author, reactions and mentions stay unless the row brings its own. */
function merged(row: MomentRow | MomentWithReplies, known: Moment | undefined): Moment {
  const rest: MomentRow = { ...(row as MomentWithReplies) };
  delete (rest as MomentWithReplies).replies;
  const deleted = Boolean(rest.deleted_at);
  const sameText = known !== undefined && known.body === rest.body;
  return {
    ...rest,
    at_seconds: rest.at_seconds === null ? null : Number(rest.at_seconds),
    author: rest.author ?? known?.author ?? null,
    // A deleted comment keeps no reactions and names nobody.
    reactions: deleted ? [] : (rest.reactions ?? known?.reactions ?? []),
    mentions: deleted ? [] : (rest.mentions ?? (sameText ? known?.mentions : undefined)),
  };
}

/** Whether a row is a reply (answers another comment). */
export const isReply = (moment: Pick<Moment, "parent_id">): boolean => Boolean(moment.parent_id);

function upsertAll(state: MomentsState, incoming: (MomentRow | MomentWithReplies)[]): MomentsState {
  const byId = new Map(state.items.map((moment) => [moment.id, moment]));
  let replies = state.replies;
  let topChanged = false;
  const touched = new Set<string>();
  const putReply = (row: MomentRow | Moment) => {
    const parentId = row.parent_id!;
    if (!touched.has(parentId)) {
      if (replies === state.replies) replies = { ...replies };
      replies[parentId] = [...(replies[parentId] ?? [])];
      touched.add(parentId);
    }
    const list = replies[parentId];
    const at = list.findIndex((reply) => reply.id === row.id);
    const next = merged(row, at < 0 ? undefined : list[at]);
    if (at < 0) list.push(next);
    else list[at] = next;
  };
  for (const row of incoming) {
    if (isReply(row)) {
      putReply(row);
      continue;
    }
    topChanged = true;
    byId.set(row.id, merged(row, byId.get(row.id)));
    for (const reply of (row as MomentWithReplies).replies ?? []) putReply({ ...reply, parent_id: row.id });
  }
  for (const parentId of touched) replies[parentId].sort(byWritten);
  return { ...state, items: topChanged ? sortMoments([...byId.values()]) : state.items, replies };
}

/** Removes a moment: a comment takes its replies with it; a reply under a deleted comment that was its last takes that comment too. */
function removeOne(state: MomentsState, id: string): MomentsState {
  const top = state.items.find((moment) => moment.id === id);
  if (top) {
    const items = state.items.filter((moment) => moment.id !== id);
    if (!(id in state.replies)) return { ...state, items };
    const replies = { ...state.replies };
    delete replies[id];
    return { ...state, items, replies };
  }
  for (const [parentId, list] of Object.entries(state.replies)) {
    if (!list.some((reply) => reply.id === id)) continue;
    const kept = list.filter((reply) => reply.id !== id);
    const parent = state.items.find((moment) => moment.id === parentId);
    if (!kept.length && parent?.deleted_at) return removeOne({ ...state, replies: { ...state.replies, [parentId]: kept } }, parentId);
    return { ...state, replies: { ...state.replies, [parentId]: kept } };
  }
  return state;
}

function withReactions(state: MomentsState, momentId: string, change: (reactions: MomentReaction[]) => MomentReaction[]): MomentsState {
  const index = state.items.findIndex((moment) => moment.id === momentId);
  if (index >= 0) {
    const moment = state.items[index];
    const reactions = change(moment.reactions);
    if (reactions === moment.reactions) return state;
    const items = [...state.items];
    items[index] = { ...moment, reactions };
    return { ...state, items };
  }
  for (const [parentId, list] of Object.entries(state.replies)) {
    const at = list.findIndex((reply) => reply.id === momentId);
    if (at < 0) continue;
    const reactions = change(list[at].reactions);
    if (reactions === list[at].reactions) return state;
    const kept = [...list];
    kept[at] = { ...list[at], reactions };
    return { ...state, replies: { ...state.replies, [parentId]: kept } };
  }
  return state;
}

/** A moment the page holds, comment or reply. */
export function findMoment(state: MomentsState, id: string): Moment | undefined {
  return (
    state.items.find((moment) => moment.id === id) ??
    Object.values(state.replies)
      .flat()
      .find((reply) => reply.id === id)
  );
}

/** Someone the page already knows the profile of (to show a live row without reading it again). */
export function knownAuthor(state: MomentsState, authorId: string): Moment["author"] | undefined {
  const known = (moment: Moment) => moment.author_id === authorId && moment.author;
  return (state.items.find(known) ?? Object.values(state.replies).flat().find(known))?.author;
}

/** How many of a thread's replies show while it is collapsed. */
export const repliesShownCollapsed = 3;

/** The replies a thread shows (the oldest three while collapsed) and how many more there are. */
export function visibleReplies(replies: readonly Moment[], expanded: boolean): { shown: readonly Moment[]; more: number } {
  if (expanded || replies.length <= repliesShownCollapsed) return { shown: replies, more: 0 };
  return { shown: replies.slice(0, repliesShownCollapsed), more: replies.length - repliesShownCollapsed };
}

/** "Show 1 more reply", "Show 12 more replies". */
export const moreRepliesLabel = (more: number) => `Show ${more} more ${more === 1 ? "reply" : "replies"}`;

export function momentsReducer(state: MomentsState, action: MomentsAction): MomentsState {
  switch (action.type) {
    case "page":
      return { ...upsertAll(state, action.moments), next: action.next };
    case "upsert":
      return upsertAll(state, [action.moment]);
    case "remove":
      return removeOne(state, action.id);
    case "reactionAdd":
      return withReactions(state, action.momentId, (reactions) => {
        const { reaction } = action;
        // One per (person, emoji): the action's answer replaces the optimistic one, an echo changes nothing.
        const same = reactions.findIndex((r) => r.id === reaction.id || (r.user_id === reaction.user_id && r.emoji === reaction.emoji));
        if (same < 0) return [...reactions, reaction];
        if (reactions[same].id === reaction.id) return reactions;
        return reactions.map((r, i) => (i === same ? reaction : r));
      });
    case "reactionRemove":
      return withReactions(state, action.momentId, (reactions) => {
        const { reaction } = action;
        const kept = reactions.filter((r) =>
          "id" in reaction ? r.id !== reaction.id : r.user_id !== reaction.user_id || r.emoji !== reaction.emoji,
        );
        return kept.length === reactions.length ? reactions : kept;
      });
    case "merge": {
      // The refetched set is the truth up to `through` (everything when null): what is missing there
      // was deleted meanwhile. Moments after it stay as they are.
      const { through } = action;
      const covered = (moment: Moment) => through === null || compareKeys(keyOf(moment), through) <= 0;
      const kept = state.items.filter((moment) => !covered(moment));
      // Threads under the refetched comments are read again with them; those under the others stay.
      const replies: Record<string, Moment[]> = {};
      for (const moment of kept) if (state.replies[moment.id]) replies[moment.id] = state.replies[moment.id];
      const fresh = upsertAll({ items: [], next: state.next, replies: {} }, action.moments);
      for (const [parentId, list] of Object.entries(fresh.replies)) replies[parentId] = list;
      return { ...state, items: sortMoments(dedupe([...kept, ...fresh.items])), replies };
    }
  }
}

/** The loaded moment playback is at: the last one at or before `seconds` (general comments never). */
export function currentMoment(items: readonly Moment[], seconds: number): Moment | null {
  let low = 0;
  let high = items.length - 1;
  let found: Moment | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = items[middle].at_seconds;
    if (at !== null && at <= seconds) {
      found = items[middle];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** What the person's own reactions are, by emoji, on a moment. */
export function reactionCounts(moment: Moment, userId: string | null): { emoji: string; count: number; mine: boolean }[] {
  const counts = new Map<string, { count: number; mine: boolean }>();
  for (const reaction of moment.reactions) {
    const entry = counts.get(reaction.emoji) ?? { count: 0, mine: false };
    entry.count++;
    if (reaction.user_id === userId) entry.mine = true;
    counts.set(reaction.emoji, entry);
  }
  return [...counts].map(([emoji, entry]) => ({ emoji, ...entry }));
}

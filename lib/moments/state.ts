// The post page's moments, as a pure reducer: pages loaded in order, changes from the room's
// channel and from the person's own actions, and refetched sets after a reconnect. Everything is
// keyed by id, so an insert seen twice (the action's answer and its echo on the channel) shows once.
import { compareKeys, keyOf, type Moment, type MomentKey, type MomentReaction } from "./types";

export interface MomentsState {
  /** Loaded moments in list order (time, general comments last, id). */
  items: Moment[];
  /** Where the next page starts (the last loaded key), or null when everything is loaded. */
  next: MomentKey | null;
}

/** A row as the channel sends it: no author profile or reactions (kept from what is known). */
export type MomentRow = Omit<Moment, "author" | "reactions"> & Partial<Pick<Moment, "author" | "reactions">>;

export type MomentsAction =
  | { type: "page"; moments: Moment[]; next: MomentKey | null }
  | { type: "upsert"; moment: MomentRow }
  | { type: "remove"; id: string }
  | { type: "reactionAdd"; momentId: string; reaction: MomentReaction }
  | { type: "reactionRemove"; momentId: string; reaction: { id: string } | { user_id: string; emoji: string } }
  | { type: "merge"; moments: Moment[]; through: MomentKey | null };

export const initialMomentsState = (moments: Moment[], next: MomentKey | null): MomentsState => ({
  items: sortMoments(dedupe(moments)),
  next,
});

const byKey = (a: Moment, b: Moment) => compareKeys(keyOf(a), keyOf(b));
const sortMoments = (moments: Moment[]) => [...moments].sort(byKey);

function dedupe(moments: Moment[]): Moment[] {
  const seen = new Map<string, Moment>();
  for (const moment of moments) seen.set(moment.id, moment);
  return [...seen.values()];
}

function upsertAll(items: Moment[], incoming: MomentRow[]): Moment[] {
  const byId = new Map(items.map((moment) => [moment.id, moment]));
  for (const row of incoming) {
    const known = byId.get(row.id);
    byId.set(row.id, {
      ...row,
      at_seconds: row.at_seconds === null ? null : Number(row.at_seconds),
      author: row.author ?? known?.author ?? null,
      reactions: row.reactions ?? known?.reactions ?? [],
    });
  }
  return sortMoments([...byId.values()]);
}

function withReactions(state: MomentsState, momentId: string, change: (reactions: MomentReaction[]) => MomentReaction[]): MomentsState {
  const index = state.items.findIndex((moment) => moment.id === momentId);
  if (index < 0) return state;
  const moment = state.items[index];
  const reactions = change(moment.reactions);
  if (reactions === moment.reactions) return state;
  const items = [...state.items];
  items[index] = { ...moment, reactions };
  return { ...state, items };
}

export function momentsReducer(state: MomentsState, action: MomentsAction): MomentsState {
  switch (action.type) {
    case "page":
      return { items: upsertAll(state.items, action.moments), next: action.next };
    case "upsert":
      return { ...state, items: upsertAll(state.items, [action.moment]) };
    case "remove": {
      const items = state.items.filter((moment) => moment.id !== action.id);
      return items.length === state.items.length ? state : { ...state, items };
    }
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
      return { ...state, items: sortMoments(dedupe([...kept, ...action.moments])) };
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

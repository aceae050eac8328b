import type { Tables } from "@/types/database";

export interface MomentAuthor {
  username: string;
  display_name: string;
  avatar_path: string | null;
  /** Their ENS name, where a linked wallet has one (the profile carries it). */
  ens_name?: string | null;
}

export interface MomentReaction {
  id: string;
  emoji: string;
  user_id: string;
}

/** An @name in a comment or a post's text that names someone (read with the item; the link uses their current username). */
export interface Mention {
  user_id: string;
  /** The name as written, lowercase. */
  handle: string;
  person: { username: string } | null;
}

/** A moment as the post page shows it: the row, its author's profile and its reactions. */
export type Moment = Pick<Tables<"moments">, "id" | "post_id" | "author_id" | "at_seconds" | "body" | "created_at" | "updated_at"> & {
  author: MomentAuthor | null;
  reactions: MomentReaction[];
  /** Hidden by members' reports until a moderator reviews it (only its author and moderators read it then). */
  hidden_at?: string | null;
  /** Held for a blocked word until a moderator approves it (only its author and moderators read it then). */
  held_at?: string | null;
  /** The comment this one answers (a reply); null or absent for a comment on the post. */
  parent_id?: string | null;
  /** Set when a comment that still has replies was deleted: it stands as "Comment deleted" above them. */
  deleted_at?: string | null;
  /** Who its @names name (absent: not read, e.g. a row from the channel). */
  mentions?: Mention[];
};

/** A top-level comment as the page reads it: with its replies, oldest first. */
export type MomentWithReplies = Moment & { replies?: Moment[] };

/** A moment's place in the list: by time, general comments (at null) last, then by id. */
export interface MomentKey {
  at: number | null;
  id: string;
}

export const keyOf = (moment: Pick<Moment, "at_seconds" | "id">): MomentKey => ({
  at: moment.at_seconds === null ? null : Number(moment.at_seconds),
  id: moment.id,
});

/** Order of the list and its pages: `at_seconds asc nulls last, id asc`. */
export function compareKeys(a: MomentKey, b: MomentKey): number {
  if (a.at !== b.at) {
    if (a.at === null) return 1;
    if (b.at === null) return -1;
    return a.at - b.at;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

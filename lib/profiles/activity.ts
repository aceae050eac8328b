// A profile's list of what the person made — their posts and comments in public rooms — as the
// page shows it: one shape for both kinds, where each leads, and the cursor for the next page.
// Pure: no client, no React (tests/unit/profile-activity.test.ts).
import { readStoredEmbed } from "@/lib/posts/stored-embed";
import type { Database } from "@/types/database";

type ActivityRow = Database["public"]["Functions"]["profile_activity"]["Returns"][number];

/** How many items a page of a profile's activity shows at a time. */
export const activityPageSize = 20;

interface ActivityBase {
  id: string;
  createdAt: string;
  room: { slug: string; name: string };
  post: { id: string; title: string };
}

export interface PostActivity extends ActivityBase {
  kind: "post";
  /** The link's thumbnail (https, from its stored details), or null: an upload, or none given. */
  thumbnailUrl: string | null;
  /** An uploaded file rather than a link. */
  upload: boolean;
  /** The media's length in seconds, when known. */
  durationSeconds: number | null;
  commentCount: number;
}

export interface CommentActivity extends ActivityBase {
  kind: "comment";
  /** The comment's words (up to 280 characters of them). */
  body: string;
  /** Where in the media it was made; null for a comment on the whole post. */
  atSeconds: number | null;
  /** An answer to another comment. */
  isReply: boolean;
}

export type ActivityItem = PostActivity | CommentActivity;

/** Where the next (older) page starts: the last item shown, by (created_at, id), as `profile_activity` takes it. */
export interface ActivityCursor {
  before_created: string;
  before_id: string;
}

/** A row of `profile_activity` as an item; null for anything it cannot be (never expected). */
export function activityItem(row: ActivityRow): ActivityItem | null {
  const base = {
    id: row.id,
    createdAt: row.created_at,
    room: { slug: row.room_slug, name: row.room_name },
    post: { id: row.post_id, title: row.post_title },
  };
  if (row.kind === "post") {
    const duration = Number(row.duration_seconds);
    return {
      kind: "post",
      ...base,
      thumbnailUrl: readStoredEmbed(row.embed)?.thumbnail_url ?? null,
      upload: row.media_kind === "upload",
      durationSeconds: row.duration_seconds !== null && Number.isFinite(duration) && duration > 0 ? duration : null,
      commentCount: typeof row.comment_count === "number" ? row.comment_count : 0,
    };
  }
  if (row.kind === "comment") {
    const atSeconds = typeof row.at_seconds === "number" && Number.isFinite(row.at_seconds) ? row.at_seconds : null;
    return { kind: "comment", ...base, body: row.body ?? "", atSeconds, isReply: row.is_reply === true };
  }
  return null;
}

/** The cursor for the page after `page`, or null when it was the last (shorter than a full page). */
export function nextActivityCursor(page: readonly ActivityItem[], pageSize = activityPageSize): ActivityCursor | null {
  const last = page.at(-1);
  if (!last || page.length < pageSize) return null;
  return { before_created: last.createdAt, before_id: last.id };
}

/**
 * What is shown, with an older page added below: each item once (an item already shown — the page
 * boundary read twice — keeps its place), in the order the pages came.
 */
export function appendActivity(shown: readonly ActivityItem[], older: readonly ActivityItem[]): ActivityItem[] {
  const known = new Set(shown.map((item) => item.id));
  return [...shown, ...older.filter((item) => !known.has(item.id))];
}

/**
 * Where an item leads: a post to its page; a comment to its own address, which opens its post at its
 * time with the comment picked out.
 */
export function activityHref(item: ActivityItem): string {
  return item.kind === "post" ? `/r/${item.room.slug}/p/${item.post.id}` : `/m/${item.id}`;
}

import type { SupabaseClient } from "@supabase/supabase-js";
import { type Result, fail, ok } from "@/lib/result";
import { isUuid } from "@/lib/validation/ids";
import { readWaveform } from "@/lib/media/peaks";
import type { Mention } from "@/lib/moments/types";
import type { Database } from "@/types/database";
import { readStoredEmbed, type StoredEmbed } from "./stored-embed";
import { type FeedCursor, olderThan } from "./cursor";

const feedPageSize = 20;

/** The columns a feed card and the post page show (the author's profile and the post's activity joined). */
export const postColumns =
  "id, room_id, author_id, title, body, media_kind, media_url, storage_path, embed, duration_seconds, created_at, updated_at, hidden_at, author:profiles!posts_author_id_fkey(username, display_name, avatar_path, ens_name), activity:post_activity(comment_count, last_activity_at)";

// search_document: the post's words for search, read only by the database's search (never selected).
type Row = Omit<Database["public"]["Tables"]["posts"]["Row"], "search_document">;
export type Post = Omit<Row, "embed" | "hidden_at" | "waveform"> & {
  embed: StoredEmbed | null;
  /** Hidden by members' reports until a moderator reviews it: only its author and moderators read it then. */
  hidden_at?: string | null;
  author: { username: string; display_name: string; avatar_path: string | null; ens_name?: string | null } | null;
  /** Its comments and when it last had one (post_activity, kept by triggers); null when not known. */
  activity: PostActivity | null;
  /** Who its text's @names name (read on the post page only). */
  mentions?: Mention[];
  /** An upload's peaks, checked (read on the post page only: lib/media/peaks.ts). */
  waveform?: number[] | null;
};

export interface PostActivity {
  comment_count: number;
  last_activity_at: string;
}

/** A row as PostgREST returns it, with its embed metadata checked. */
export function shapePost(row: Record<string, unknown>): Post {
  // A one-to-one embed: an object, or (from some servers) a list of at most one.
  const activity = (Array.isArray(row.activity) ? row.activity[0] : row.activity) as PostActivity | undefined | null;
  const post: Post = { ...(row as unknown as Post), embed: readStoredEmbed(row.embed), activity: activity ?? null };
  if ("waveform" in row) post.waveform = readWaveform(row.waveform);
  return post;
}

/** One page of a room's feed, newest first, and the cursor of the next page if there is one. */
export async function getFeedPage(
  supabase: SupabaseClient<Database>,
  roomId: string,
  cursor: FeedCursor | null,
): Promise<Result<{ posts: Post[]; next: FeedCursor | null }>> {
  let query = supabase.from("posts").select(postColumns).eq("room_id", roomId);
  // created_at ≤ the cursor's bounds the index scan; the `or` then settles ties by id.
  if (cursor) query = query.lte("created_at", cursor.createdAt).or(olderThan(cursor));
  const { data, error } = await query
    .order("created_at", { ascending: false })
    .order("id", { ascending: false })
    .limit(feedPageSize + 1);
  if (error) return fail("We couldn't load the posts — reload the page in a moment.");
  const rows = (data as unknown as Record<string, unknown>[]).map(shapePost);
  const posts = rows.slice(0, feedPageSize);
  const last = posts.at(-1);
  const next = rows.length > feedPageSize && last ? { createdAt: last.created_at, id: last.id } : null;
  return ok({ posts, next });
}

/** A post of a room, as the caller may read it; null when there is none (or they may not). */
export async function getPost(supabase: SupabaseClient<Database>, roomId: string, postId: string): Promise<Post | null> {
  if (!isUuid(postId)) return null;
  const { data } = await supabase
    .from("posts")
    .select(`${postColumns}, waveform, mentions(user_id, handle, person:profiles(username))`)
    .eq("room_id", roomId)
    .eq("id", postId)
    .maybeSingle();
  return data ? shapePost(data as unknown as Record<string, unknown>) : null;
}

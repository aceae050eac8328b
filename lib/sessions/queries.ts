import type { SupabaseClient } from "@supabase/supabase-js";
import { readStoredEmbed } from "@/lib/posts/stored-embed";
import type { Database } from "@/types/database";
import { roomHasLiveSession } from "./live";
import type { QueueEntry, SessionPost, SessionRow } from "./types";

type Client = SupabaseClient<Database>;

/** Signed URLs for playback live this long (as on the post page); the page signs again when one is older. */
export const sessionSignedUrlSeconds = 30 * 60;

/** How many of the room's posts the session page offers (newest first). */
const sessionPostLimit = 200;

const audioFile = /\.(mp3|m4a|wav|ogg|weba|flac|aac)$/i;

type PostRow = Pick<
  Database["public"]["Tables"]["posts"]["Row"],
  "id" | "title" | "author_id" | "media_kind" | "media_url" | "storage_path" | "embed" | "duration_seconds"
>;

export const sessionPostColumns = "id, title, author_id, media_kind, media_url, storage_path, embed, duration_seconds";

/** A post as the session plays it, given its file's signed URL (uploads) — null when it cannot be played. */
export function sessionPostOf(row: PostRow, signedUrl: string | null): SessionPost | null {
  const meta = readStoredEmbed(row.embed);
  const src = row.media_kind === "upload" ? signedUrl : row.media_url;
  if (!src) return null;
  return {
    id: row.id,
    title: row.title,
    author_id: row.author_id,
    media_kind: row.media_kind === "upload" ? "upload" : "embed",
    duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    src,
    storage_path: row.storage_path,
    audio: row.media_kind === "upload" ? audioFile.test(row.storage_path ?? "") : meta?.provider === "spotify",
    poster: meta?.thumbnail_url ?? null,
  };
}

/** The room's posts (newest first), uploads with signed URLs, for the session page. */
export async function getSessionPosts(supabase: Client, roomId: string): Promise<SessionPost[]> {
  const { data } = await supabase
    .from("posts")
    .select(sessionPostColumns)
    .eq("room_id", roomId)
    .order("created_at", { ascending: false })
    .limit(sessionPostLimit);
  return playableSessionPosts(supabase, (data ?? []) as PostRow[]);
}

/** These posts as the session plays them, in their order: uploads signed in one request, the unplayable left out. */
export async function playableSessionPosts(supabase: Pick<Client, "storage">, rows: PostRow[]): Promise<SessionPost[]> {
  const paths = rows.map((row) => row.storage_path).filter((path): path is string => Boolean(path));
  const signed = new Map<string, string>();
  if (paths.length) {
    const { data: urls } = await supabase.storage.from("media").createSignedUrls(paths, sessionSignedUrlSeconds);
    for (const url of urls ?? []) if (url.path && url.signedUrl) signed.set(url.path, url.signedUrl);
  }
  return rows
    .map((row) => sessionPostOf(row, row.storage_path ? (signed.get(row.storage_path) ?? null) : null))
    .filter((post): post is SessionPost => post !== null);
}

/**
 * The room's live session and its queue (play order), as the caller may read them. A session nobody
 * follows is ended first (./live.ts), so the page offers to start a new one rather than join it.
 */
export async function getLiveSession(supabase: Client, roomId: string): Promise<{ session: SessionRow | null; queue: QueueEntry[] }> {
  if (!(await roomHasLiveSession(supabase, roomId))) return { session: null, queue: [] };
  const { data: session } = await supabase.from("listening_sessions").select("*").eq("room_id", roomId).is("ended_at", null).maybeSingle();
  if (!session) return { session: null, queue: [] };
  const { data: queue } = await supabase
    .from("session_queue")
    .select("*")
    .eq("session_id", session.id)
    .order("sort_key")
    .order("created_at");
  return { session, queue: queue ?? [] };
}

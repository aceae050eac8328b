import type { SupabaseClient } from "@supabase/supabase-js";
import type { MomentAuthor } from "@/lib/moments/types";
import type { Database } from "@/types/database";
import { playableSessionPosts, sessionPostColumns } from "./queries";
import type { HistoryRow } from "./replay";
import type { SessionPost } from "./types";

type Client = Pick<SupabaseClient<Database>, "from" | "rpc" | "storage">;

/** The most comments a replay brings back (a long, busy night is still one page). */
const replayCommentLimit = 2000;

/** A room's ended session as the room page offers it for replay. */
export interface ReplayListing {
  session_id: string;
  started_at: string;
  ended_at: string;
  tracks: number;
  comments: number;
}

/** A comment made during the session, with its reactions, each at its own moment. */
export interface ReplayComment {
  id: string;
  post_id: string;
  author_id: string;
  at_seconds: number | null;
  body: string;
  created_at: string;
  author: MomentAuthor | null;
  reactions: { id: string; emoji: string; user_id: string; created_at: string }[];
}

export interface Replay {
  session: { id: string; room_id: string; started_at: string; ended_at: string | null };
  history: HistoryRow[];
  /** The posts it played that the caller may still play (removed and hidden ones are absent). */
  posts: SessionPost[];
  comments: ReplayComment[];
}

/** The room's recent ended sessions that played something, newest first, counted as the caller may see them. */
export async function getRecentReplays(supabase: Pick<Client, "rpc">, roomId: string, count = 3): Promise<ReplayListing[]> {
  const { data } = await supabase.rpc("session_replays", { room_id: roomId, max_count: count });
  return data ?? [];
}

const commentColumns =
  "id, post_id, author_id, at_seconds, body, created_at, author:profiles!moments_author_id_fkey(username, display_name, avatar_path, ens_name), reactions(id, emoji, user_id, created_at)";

/**
 * One session of the room for its replay, as the caller may read it: null when there is no such
 * session in this room for them (the rules of the room decide, in Postgres).
 */
export async function getReplay(supabase: Client, roomId: string, sessionId: string): Promise<Replay | null> {
  const { data: session } = await supabase
    .from("listening_sessions")
    .select("id, room_id, started_at, ended_at")
    .eq("id", sessionId)
    .eq("room_id", roomId)
    .maybeSingle();
  if (!session) return null;
  const [history, comments] = await Promise.all([
    supabase
      .from("session_history")
      .select("post_id, started_at, ended_at, position_seconds, playing, rate")
      .eq("session_id", sessionId)
      .order("started_at")
      .order("id"),
    supabase
      .from("moments")
      .select(commentColumns)
      .eq("session_id", sessionId)
      .is("parent_id", null)
      .is("deleted_at", null)
      .order("created_at")
      .order("id")
      .limit(replayCommentLimit),
  ]);
  const rows = history.data ?? [];
  const ids = [...new Set(rows.map((row) => row.post_id))];
  const posts = ids.length ? await playablePosts(supabase, ids) : [];
  return {
    session,
    history: rows,
    posts,
    comments: ((comments.data ?? []) as unknown as ReplayComment[]).map((comment) => ({
      ...comment,
      at_seconds: comment.at_seconds === null ? null : Number(comment.at_seconds),
      reactions: comment.reactions ?? [],
    })),
  };
}

/** The posts the caller may read among these, uploads with signed URLs. */
async function playablePosts(supabase: Client, ids: string[]): Promise<SessionPost[]> {
  const { data } = await supabase.from("posts").select(sessionPostColumns).in("id", ids);
  return playableSessionPosts(supabase, data ?? []);
}

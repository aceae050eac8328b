import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";

/** A room's live session as public.live_sessions answers it: who hosts, what plays, how many follow. */
export interface LiveSessionSummary {
  roomId: string;
  sessionId: string;
  hostId: string | null;
  postId: string | null;
  playing: boolean;
  startedAt: string;
  /** People with the session open now (each once). */
  listeners: number;
}

/**
 * The live sessions of these rooms that the caller may read. Postgres first ends those nobody follows
 * (no host heartbeat and no page in the session for two minutes: private.session_is_over), so a room
 * everyone left is never announced as live. At most 100 rooms per call; an error reads as none.
 */
export async function liveSessions(supabase: SupabaseClient<Database>, roomIds: string[]): Promise<LiveSessionSummary[]> {
  if (!roomIds.length) return [];
  const { data } = await supabase.rpc("live_sessions", { room_ids: roomIds.slice(0, 100) });
  return (data ?? []).map((row) => ({
    roomId: row.room_id,
    sessionId: row.session_id,
    hostId: row.host_id,
    postId: row.post_id,
    playing: row.playing,
    startedAt: row.started_at,
    listeners: row.listeners,
  }));
}

/** Whether a session is on in the room, as far as the caller may read it (see liveSessions). */
export async function roomHasLiveSession(supabase: SupabaseClient<Database>, roomId: string): Promise<boolean> {
  return (await liveSessions(supabase, [roomId])).length > 0;
}

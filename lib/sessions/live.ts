import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";

/** How long a session whose host has gone quiet stays on (private.session_idle_after() in the migration). */
const sessionIdleAfterMs = 2 * 60_000;

/** A session not ended is on while someone hosts it: its host was heard from within the idle time. */
export const sessionIsLive = (session: { host_seen_at: string }, now: number): boolean =>
  now - Date.parse(session.host_seen_at) < sessionIdleAfterMs;

/** Whether a session is on in the room, as far as the caller may read it (RLS: whoever may read the room). */
export async function roomHasLiveSession(supabase: SupabaseClient<Database>, roomId: string): Promise<boolean> {
  const { data } = await supabase
    .from("listening_sessions")
    .select("host_seen_at")
    .eq("room_id", roomId)
    .is("ended_at", null)
    .maybeSingle();
  return data !== null && sessionIsLive(data, Date.now());
}

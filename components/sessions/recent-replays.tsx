import Link from "next/link";
import type { SupabaseClient } from "@supabase/supabase-js";
import { replaySummary, sessionWhen } from "@/lib/sessions/replay";
import { getRecentReplays } from "@/lib/sessions/replay-queries";
import type { Database } from "@/types/database";

/** Sessions that ended longer ago than this are not offered on the room page. */
const recentDays = 14;

/**
 * The room page's quiet "Replay" line: its recent ended sessions ("Last night's session — 2 h,
 * 14 tracks, 120 comments"), each leading to its replay. Nothing when there is none.
 */
export async function RecentReplays({
  supabase,
  room,
}: {
  supabase: Pick<SupabaseClient<Database>, "rpc">;
  room: { id: string; slug: string };
}) {
  const now = new Date();
  const replays = (await getRecentReplays(supabase, room.id, 3)).filter(
    (replay) => now.getTime() - Date.parse(replay.ended_at) < recentDays * 86_400_000,
  );
  if (replays.length === 0) return null;
  return (
    <nav aria-label="Replays of recent sessions" data-testid="recent-replays">
      <ul className="flex flex-col gap-1 text-sm">
        {replays.map((replay) => (
          <li key={replay.session_id}>
            <Link
              href={`/r/${room.slug}/sessions/${replay.session_id}`}
              prefetch={false}
              className="inline-flex min-h-11 items-center gap-2 text-muted hover:text-accent"
            >
              <span aria-hidden="true">↺</span>
              <span>
                <span className="font-medium text-ink">Replay</span> · {sessionWhen(replay.started_at, now)} —{" "}
                {replaySummary(Date.parse(replay.ended_at) - Date.parse(replay.started_at), replay.tracks, replay.comments)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

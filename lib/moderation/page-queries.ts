// The moderation page's reads (app/r/[slug]/moderation) together: the queue (./reports.ts), the
// blocked terms (./held.ts) and a page of the moderation log. Each runs as the signed-in person;
// row-level security and moderation_queue's own check decide what an owner or moderator sees. Bans
// and timeouts in force are read by ./queries.ts.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { type BlockedTerm, blockedTerms } from "./held";
import { type QueueItem, moderationQueue } from "./reports";

type Client = SupabaseClient<Database>;

export interface PersonRef {
  id: string | null;
  username: string | null;
  displayName: string | null;
}

export interface LogEntry {
  id: string;
  action: string;
  actor: PersonRef | null;
  target: PersonRef | null;
  reason: string;
  createdAt: string;
}

interface ModerationPageData {
  queue: QueueItem[];
  terms: BlockedTerm[];
  log: LogEntry[];
  /** Whether older log entries exist than the page shows. */
  moreLog: boolean;
}

const logPageSize = 25;
const failed = "We couldn't load the moderation page — reload it in a moment.";

type ProfileRow = { username: string; display_name: string } | null;
const person = (row: ProfileRow, id: string | null): PersonRef | null =>
  id || row ? { id, username: row?.username ?? null, displayName: row?.display_name ?? null } : null;

/** The queue, the blocked terms and a page of the log from `logBefore` (its paging cursor), newest first. */
export async function loadModerationPage(
  supabase: Client,
  roomId: string,
  logBefore: string | null = null,
): Promise<{ ok: true; data: ModerationPageData } | { ok: false; error: string }> {
  let logQuery = supabase
    .from("moderation_log")
    .select(
      "id, action, reason, created_at, actor_id, target_user_id, actor:profiles!moderation_log_actor_id_fkey(username, display_name), target:profiles!moderation_log_target_user_id_fkey(username, display_name)",
    )
    .eq("room_id", roomId)
    .order("created_at", { ascending: false })
    .order("id", { ascending: false })
    .limit(logPageSize + 1);
  if (logBefore) logQuery = logQuery.lt("created_at", logBefore);

  const [queue, terms, log] = await Promise.all([moderationQueue(supabase, roomId, null, 50), blockedTerms(supabase, roomId), logQuery]);
  if (!queue.ok) return { ok: false, error: queue.error };
  if (!terms.ok) return { ok: false, error: terms.error };
  if (log.error) return { ok: false, error: failed };

  return {
    ok: true,
    data: {
      queue: queue.data.items,
      terms: terms.data,
      log: log.data.slice(0, logPageSize).map((row) => ({
        id: row.id,
        action: row.action,
        actor: person(row.actor, row.actor_id),
        target: person(row.target, row.target_user_id),
        reason: row.reason,
        createdAt: row.created_at,
      })),
      moreLog: log.data.length > logPageSize,
    },
  };
}

import type { BrowserData } from "@/lib/supabase/data-client";
import { readyMarkOf, type ReadyMark } from "./ready-check";
import { sessionErrorText, sessionMessages } from "./rpc";
import type { SessionActionResult, SessionRow } from "./types";

// The ready check's calls from the page's data client (supabase/migrations/…_session_ready_check.sql).

/** This page's player has buffered `postId` at `positionSeconds` (recorded as the signed-in person). */
export async function markReady(
  data: BrowserData,
  input: { sessionId: string; postId: string; positionSeconds: number },
): Promise<SessionActionResult<string>> {
  try {
    const { data: at, error } = await data.rpc("mark_session_ready", {
      session_id: input.sessionId,
      post_id: input.postId,
      position_seconds: Math.max(0, input.positionSeconds),
    });
    return error ? { ok: false, error: sessionErrorText(error) } : { ok: true, data: at };
  } catch {
    return { ok: false, error: sessionMessages.unreachable };
  }
}

/** Who has said they are ready, for which posts of the session (what the channel may have said while the page was away). */
export async function readReadiness(data: BrowserData, sessionId: string): Promise<ReadyMark[]> {
  const { data: rows } = await data
    .from("session_readiness")
    .select("user_id, post_id, position_seconds, ready_at")
    .eq("session_id", sessionId);
  return (rows ?? []).map(readyMarkOf).filter((mark): mark is ReadyMark => mark !== null);
}

/** Host: how long the ready check waits (0: none) and whether it runs before every track. */
export async function setReadyCheck(
  data: BrowserData,
  input: { sessionId: string; seconds: number; eachTrack: boolean },
): Promise<SessionActionResult<SessionRow>> {
  try {
    const { data: row, error } = await data.rpc("set_session_ready_check", {
      session_id: input.sessionId,
      seconds: input.seconds,
      each_track: input.eachTrack,
    });
    return error ? { ok: false, error: sessionErrorText(error) } : { ok: true, data: row as SessionRow };
  } catch {
    return { ok: false, error: sessionMessages.unreachable };
  }
}

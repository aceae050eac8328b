import { messages } from "@/lib/messages";
import type { BrowserData } from "@/lib/supabase/data-client";
import type { QueueEntry, SessionActionResult, SessionRow } from "./types";

/**
 * The session's functions (supabase/migrations/…_listening_sessions.sql), called from the page's
 * data client: they decide who may do what and say why not in words, which are shown as they are.
 * A request that never reached the server says so.
 */

export const sessionMessages = { unreachable: messages.unreachable, signedOut: messages.sessionEnded, failed: messages.failed } as const;

type RpcError = { message: string; code?: string; details?: string | null } | null;

/** An RPC's error in words: the function's own message, or why the request did not get through. */
export function sessionErrorText(error: NonNullable<RpcError>): string {
  // supabase-js reports a failed fetch as an error without a code ("TypeError: Failed to fetch").
  if (!error.code || /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message)) return sessionMessages.unreachable;
  if (error.code === "PGRST301" || error.code === "PGRST303" || /jwt/i.test(error.message)) return sessionMessages.signedOut;
  // The functions' refusals are sentences; anything else (a bare constraint name) is not for people.
  return /^[A-Z][^_]*$/.test(error.message) ? error.message : sessionMessages.failed;
}

async function call<T>(request: PromiseLike<{ data: unknown; error: RpcError }>): Promise<SessionActionResult<T>> {
  try {
    const { data, error } = await request;
    if (error) return { ok: false, error: sessionErrorText(error) };
    return { ok: true, data: data as T };
  } catch {
    return { ok: false, error: sessionMessages.unreachable };
  }
}

/** How many of the room's newest posts a new session queues. */
export const recentPostsQueued = 10;

/** Server time (ISO) for a playback change the person made at server ms `atMs`. */
const iso = (atMs: number) => new Date(atMs).toISOString();

export const sessionActions = {
  /** Starts the room's session, with the room's newest other posts queued (Postgres chooses them). */
  start: (data: BrowserData, roomId: string, postId: string | null) =>
    call<SessionRow>(
      data.rpc("start_listening_session", { room_id: roomId, queue_recent: recentPostsQueued, ...(postId ? { post_id: postId } : {}) }),
    ),
  end: (data: BrowserData, sessionId: string) => call<SessionRow>(data.rpc("end_listening_session", { session_id: sessionId })),
  setPlayback: (
    data: BrowserData,
    input: { sessionId: string; postId: string | null; positionSeconds: number; playing: boolean; rate: number; atMs: number },
  ) =>
    call<SessionRow>(
      data.rpc("set_session_playback", {
        session_id: input.sessionId,
        post_id: input.postId as string,
        position_seconds: input.positionSeconds,
        playing: input.playing,
        rate: input.rate,
        at: iso(input.atMs),
      }),
    ),
  next: (data: BrowserData, input: { sessionId: string; afterPostId: string | null; atMs: number }) =>
    call<SessionRow>(
      data.rpc("play_next_in_session", { session_id: input.sessionId, after_post_id: input.afterPostId as string, at: iso(input.atMs) }),
    ),
  heartbeat: (data: BrowserData, sessionId: string) => call<string>(data.rpc("session_heartbeat", { session_id: sessionId })),
  /** Answers the session as it then is, whoever hosts (lib/sessions/succession.ts: claimOutcome). */
  claimHost: (data: BrowserData, sessionId: string, expectedHostId: string | null) =>
    call<SessionRow>(data.rpc("claim_session_host", { session_id: sessionId, expected_host_id: expectedHostId as string })),
  handOver: (data: BrowserData, sessionId: string, newHostId: string) =>
    call<SessionRow>(data.rpc("hand_over_session", { session_id: sessionId, new_host_id: newHostId })),
  release: (data: BrowserData, sessionId: string) => call<null>(data.rpc("release_session_host", { session_id: sessionId })),
};

/** The room's live session and its queue, read through REST (after a gap, or on start). */
export async function fetchSession(
  data: BrowserData,
  roomId: string,
): Promise<SessionActionResult<{ session: SessionRow | null; queue: QueueEntry[] }>> {
  try {
    const { data: session, error } = await data
      .from("listening_sessions")
      .select("*")
      .eq("room_id", roomId)
      .is("ended_at", null)
      .maybeSingle();
    if (error) return { ok: false, error: sessionErrorText(error) };
    if (!session) return { ok: true, data: { session: null, queue: [] } };
    const queue = await data.from("session_queue").select("*").eq("session_id", session.id).order("sort_key").order("created_at");
    if (queue.error) return { ok: false, error: sessionErrorText(queue.error) };
    return { ok: true, data: { session, queue: queue.data } };
  } catch {
    return { ok: false, error: sessionMessages.unreachable };
  }
}

/**
 * Tells the server the host's page is closing, while it closes: a keepalive request outlives the
 * page (supabase-js cannot send one). Best effort: without it, the host goes quiet in 5 s.
 */
export function releaseOnExit(url: string, apiKey: string, accessToken: string, sessionId: string): void {
  try {
    void fetch(`${url.replace(/\/$/, "")}/rest/v1/rpc/release_session_host`, {
      method: "POST",
      keepalive: true,
      headers: { apikey: apiKey, Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ session_id: sessionId }),
    }).catch(() => undefined);
  } catch {
    // the page is going: nothing to tell anyone
  }
}

// Joining a room and re-checking a gated membership from the app: calls the join-room edge
// function with the signed-in person's session and returns a typed result whose error is the
// sentence to show (and, for a gate, the requirement, e.g. "At least 1 CUE on Base").
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import type { Result } from "../result.ts";
import type { JoinAnswer, JoinRoomBody, JoinRoomError, RecheckAnswer } from "../validation/join-room.ts";

export type { JoinAnswer, JoinRoomError, RecheckAnswer } from "../validation/join-room.ts";

export type JoinResult<T> = Result<T, JoinRoomError>;

/** Any supabase-js client carrying the person's session (browser or server). */
type FunctionsCaller = Pick<SupabaseClient, "functions">;

const offline: JoinRoomError = { code: "offline", error: "We couldn't reach Cuepoint's server — check your connection and try again." };

function isJoinRoomError(value: unknown): value is JoinRoomError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as JoinRoomError).code === "string" &&
    typeof (value as JoinRoomError).error === "string"
  );
}

async function callJoinRoom<T>(supabase: FunctionsCaller, body: JoinRoomBody): Promise<JoinResult<T>> {
  const { data, error } = await supabase.functions.invoke<T>("join-room", { body });
  if (!error) return { ok: true, data: data as T };
  if (error instanceof FunctionsHttpError) {
    const answer: unknown = await (error.context as Response).json().catch(() => null);
    if (isJoinRoomError(answer)) return { ok: false, error: answer };
  }
  return { ok: false, error: offline };
}

/**
 * Joins the room: a public room at once; a gated room when one of the person's linked wallets holds
 * enough of the gate's token (read on chain). Already a member: ok, `already_member` true.
 */
export function joinRoom(supabase: FunctionsCaller, roomId: string): Promise<JoinResult<JoinAnswer>> {
  return callJoinRoom<JoinAnswer>(supabase, { room_id: roomId });
}

/**
 * When a member opens a gated room: re-reads their balances if the last check is over an hour old.
 * `status: "lapsed"` means no linked wallet qualifies any more and the membership was removed;
 * `reason` says why.
 */
export function recheckMembership(supabase: FunctionsCaller, roomId: string): Promise<JoinResult<RecheckAnswer>> {
  return callJoinRoom<RecheckAnswer>(supabase, { room_id: roomId, action: "recheck" });
}

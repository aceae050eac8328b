// join-room: joins the caller to a room, checking a gated room's token on chain.
//   POST {"room_id"}                     → joins: a public room at once; a gated room when one of the
//                                          caller's linked wallets holds enough of the gate's token
//   POST {"room_id","action":"recheck"}  → a gated member's balances re-read when the last check is
//                                          over an hour old; the membership lapses if none qualifies
// Leaving needs no function: the member deletes their own row (RLS allows exactly that).
import { callerClaims } from "../_shared/auth.ts";
import { corsHeaders } from "../_shared/cors.ts";
import { joinRoomBodySchema, joinRoomMessages } from "../../../lib/validation/join-room.ts";
import { fail, join, recheck } from "./membership.ts";

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return fail(405, "malformed", joinRoomMessages.malformed);
  const caller = callerClaims(req);
  if (caller.role !== "authenticated" || !caller.sub) return fail(401, "not_signed_in", joinRoomMessages.notSignedIn);

  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return fail(400, "malformed", joinRoomMessages.malformed);
  }
  const input = joinRoomBodySchema.safeParse(body);
  if (!input.success) return fail(400, "malformed", joinRoomMessages.malformed);

  try {
    if (input.data.action === "recheck") return await recheck(caller.sub, input.data.room_id);
    return await join(caller.sub, req.headers.get("Authorization")!, input.data.room_id);
  } catch (error) {
    console.error("join-room failed:", error);
    return fail(500, "internal", joinRoomMessages.internal);
  }
});

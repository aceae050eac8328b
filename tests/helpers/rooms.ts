// Rooms in tests: created by a signed-in owner through create_room (their own policies), the
// join-room function called as a person, and what was stored, read as the database owner.
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import type { RoomGateRecord } from "../../lib/validation/room";
import { adminQuery } from "./stack";

export async function createRoom(
  owner: SupabaseClient,
  label: string,
  gate: RoomGateRecord | null = null,
): Promise<{ id: string; slug: string }> {
  const slug = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const { data, error } = await owner.rpc("create_room", { slug, name: `Room ${label}`, description: "", gate: gate as never });
  if (error) throw new Error(`create_room ${slug}: ${error.message}`);
  // Suites arrange many rooms for one owner; the daily quota is not their subject (rate-limits.test.ts is).
  await adminQuery(
    "delete from private.rate_events e using public.rooms r where r.id = $1 and e.person = r.owner_id and e.action = 'rooms'",
    [(data as { id: string }).id],
  );
  return { id: (data as { id: string }).id, slug };
}

export interface JoinAnswerOf {
  status: number;
  body: Record<string, unknown> & { code?: string; error?: string; requirement?: string; status?: string; reason?: string };
}

/** Calls join-room and returns its status and JSON body, whether it succeeded or not. */
export async function callJoinRoom(client: SupabaseClient, body: unknown): Promise<JoinAnswerOf> {
  const { data, error, response } = await client.functions.invoke("join-room", { body: body as Record<string, unknown> });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: await res.json() };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data };
}

export interface MembershipRow {
  room_id: string;
  user_id: string;
  role: string;
  verified_wallet: string | null;
  verified_at: Date | null;
}

export async function membershipsOf(roomId: string, userId: string): Promise<MembershipRow[]> {
  return adminQuery<MembershipRow>(
    "select room_id, user_id, role, verified_wallet, verified_at from public.memberships where room_id = $1 and user_id = $2",
    [roomId, userId],
  );
}

/** Sets a membership's last check to `ms` ago (as the server, with the service role), as if time had passed. */
export async function setVerifiedAgo(admin: SupabaseClient, roomId: string, userId: string, ms: number): Promise<string> {
  const verifiedAt = new Date(Date.now() - ms).toISOString();
  const { error } = await admin.from("memberships").update({ verified_at: verifiedAt }).eq("room_id", roomId).eq("user_id", userId);
  if (error) throw error;
  return verifiedAt;
}

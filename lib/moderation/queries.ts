import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { type RoomStanding, goodStanding, standingFromRow } from "./standing";

// Reads of bans, timeouts and the caller's standing, for Server Components and server actions. Every
// read goes through the caller's client: RLS decides (the banned or timed-out person reads their own
// row; the owner and moderators read the room's).

type Client = SupabaseClient<Database>;

/** The caller's standing in the room (good standing when the read fails or the room is gone). */
export async function roomStanding(supabase: Client, roomId: string): Promise<RoomStanding> {
  const { data, error } = await supabase.rpc("my_room_standing", { room_id: roomId }).maybeSingle();
  if (error || !data) return goodStanding;
  return standingFromRow(data);
}

export interface ModeratedPerson {
  userId: string;
  username: string;
  displayName: string;
  /** Who acted (null: their account is gone). */
  byUsername: string | null;
  reason: string;
  createdAt: string;
  /** When it ends (ISO); null for a ban for good. */
  expiresAt: string | null;
}

type PersonRow = { username: string; display_name: string } | null;

function person(row: {
  user_id: string;
  reason: string;
  created_at: string;
  expires_at: string | null;
  target: PersonRow;
  actor: PersonRow;
}): ModeratedPerson {
  return {
    userId: row.user_id,
    username: row.target?.username ?? "",
    displayName: row.target?.display_name ?? "",
    byUsername: row.actor?.username ?? null,
    reason: row.reason,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** The room's bans that still hold, newest first (owner and moderators; anyone else reads none but their own). */
export async function roomBans(supabase: Client, roomId: string, now = new Date()): Promise<ModeratedPerson[]> {
  const { data, error } = await supabase
    .from("bans")
    .select(
      "user_id, reason, created_at, expires_at, target:profiles!bans_user_id_fkey(username, display_name), actor:profiles!bans_banned_by_fkey(username, display_name)",
    )
    .eq("room_id", roomId)
    .or(`expires_at.is.null,expires_at.gt.${now.toISOString()}`)
    .order("created_at", { ascending: false })
    .limit(200);
  if (error || !data) return [];
  return data.map(person);
}

/** The room's timeouts that still hold, soonest to end first. */
export async function roomTimeouts(supabase: Client, roomId: string, now = new Date()): Promise<ModeratedPerson[]> {
  const { data, error } = await supabase
    .from("timeouts")
    .select(
      "user_id, reason, created_at, expires_at, target:profiles!timeouts_user_id_fkey(username, display_name), actor:profiles!timeouts_by_user_id_fkey(username, display_name)",
    )
    .eq("room_id", roomId)
    .gt("expires_at", now.toISOString())
    .order("expires_at", { ascending: true })
    .limit(200);
  if (error || !data) return [];
  return data.map(person);
}

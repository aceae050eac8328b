// Rooms and memberships set up with the service role, for tests whose subject is something else
// (who may do what in settings is decided by Postgres; arranging who is in the room is not the test).
import { randomBytes } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { serviceRoleKey } from "@cuepoint/stack/keys";
import { apiUrl } from "./users";

export const admin = createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

function uniqueSlug(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(2).toString("hex")}`;
}

/** A public room owned by `ownerId` (the owner's membership comes from the rooms trigger). */
export async function createPublicRoom(ownerId: string, label: string, name = "Late Night Listening") {
  const slug = uniqueSlug(label);
  const { data, error } = await admin
    .from("rooms")
    .insert({ slug, name, description: "Deep cuts after midnight.", owner_id: ownerId })
    .select("id, slug")
    .single();
  if (error || !data) throw new Error(`could not create room ${slug}: ${error?.message}`);
  return data as { id: string; slug: string };
}

/** A member as the join-room function leaves one (the balance just checked: a gated room asks). */
export async function addMember(roomId: string, userId: string, role: "member" | "moderator" = "member") {
  const { error } = await admin
    .from("memberships")
    .insert({ room_id: roomId, user_id: userId, role, verified_at: new Date().toISOString() });
  if (error) throw new Error(`could not add member: ${error.message}`);
}

export async function roleOf(roomId: string, userId: string): Promise<string | null> {
  const { data } = await admin.from("memberships").select("role").eq("room_id", roomId).eq("user_id", userId).maybeSingle();
  return (data as { role: string } | null)?.role ?? null;
}

/** A wallet shown next to a member, with an ENS name (no signature: how it got linked is not the test). */
export async function giveWallet(userId: string, ensName: string | null = null) {
  const address = `0x${randomBytes(20).toString("hex")}`;
  const { error } = await admin.from("wallets").insert({ user_id: userId, address, ens_name: ensName });
  if (error) throw new Error(`could not add wallet: ${error.message}`);
  return address;
}

export async function setDisplayName(userId: string, displayName: string) {
  const { error } = await admin.from("profiles").update({ display_name: displayName }).eq("id", userId);
  if (error) throw new Error(`could not name ${userId}: ${error.message}`);
}

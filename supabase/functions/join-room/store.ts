// The function's reads and writes. Rooms, gates, wallets and gated memberships as the server
// (service_role: a gated room's membership is inserted only after a balance was read on chain);
// a public room's membership as the caller, so the room's own policies decide.
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2";
import { maxWalletsPerAccount } from "../../../lib/validation/wallet.ts";
import type { JoinedMembership } from "../../../lib/validation/join-room.ts";
import type { Gate } from "./chain.ts";

const url = Deno.env.get("SUPABASE_URL")!;
const noSession = { persistSession: false, autoRefreshToken: false };

export const db = createClient(url, Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, { auth: noSession });

/** supabase-js acting as the caller (their JWT), so RLS applies. */
export function asCaller(authorization: string): SupabaseClient {
  return createClient(url, Deno.env.get("SUPABASE_ANON_KEY")!, { auth: noSession, global: { headers: { Authorization: authorization } } });
}

export interface RoomToJoin {
  id: string;
  visibility: "public" | "gated";
  gate: Gate | null;
}

const membershipColumns = "room_id, user_id, role, joined_at, verified_wallet, verified_at";

export async function findRoom(roomId: string): Promise<RoomToJoin | null> {
  const { data: room, error } = await db.from("rooms").select("id, visibility").eq("id", roomId).maybeSingle();
  if (error) throw error;
  if (!room) return null;
  if (room.visibility !== "gated") return { id: room.id, visibility: "public", gate: null };
  const { data: gate, error: gateError } = await db
    .from("room_gates")
    .select("chain_id, contract_address, standard, token_id, min_balance")
    .eq("room_id", roomId)
    .maybeSingle();
  if (gateError) throw gateError;
  return { id: room.id, visibility: "gated", gate: gate as Gate | null };
}

export async function findMembership(roomId: string, userId: string): Promise<JoinedMembership | null> {
  const { data, error } = await db.from("memberships").select(membershipColumns).eq("room_id", roomId).eq("user_id", userId).maybeSingle();
  if (error) throw error;
  return data as JoinedMembership | null;
}

export async function linkedWallets(userId: string): Promise<string[]> {
  const { data, error } = await db.from("wallets").select("address").eq("user_id", userId).order("verified_at").limit(maxWalletsPerAccount);
  if (error) throw error;
  return (data ?? []).map((row) => row.address as string);
}

export interface BanCheck {
  banned: boolean;
  /** When the ban ends (ISO); null while banned: for good. */
  bannedUntil: string | null;
  /** The caller's linked wallets a ban from this room holds against (they admit nobody). */
  barredWallets: string[];
}

/** Whether the person is banned from the room, and which of their wallets a ban holds against (public.join_ban_check). */
export async function banCheck(roomId: string, userId: string): Promise<BanCheck> {
  const { data, error } = await db.rpc("join_ban_check", { room_id: roomId, user_id: userId }).maybeSingle();
  if (error) throw error;
  const row = data as { banned: boolean; banned_until: string | null; barred_wallets: string[] | null } | null;
  return { banned: row?.banned === true, bannedUntil: row?.banned_until ?? null, barredWallets: row?.barred_wallets ?? [] };
}

export type AddResult =
  | { ok: true; membership: JoinedMembership; created: boolean }
  | { ok: false; reason: "room_gone" }
  | { ok: false; reason: "banned"; until: string | null }
  | { ok: false; reason: "wallet_banned" };

/**
 * Adds the membership unless it exists (`on conflict do nothing`, so two joins at once make one),
 * then reads it back. A room deleted meanwhile is "room_gone".
 */
export async function addMembership(
  client: SupabaseClient,
  row: { room_id: string; user_id: string; verified_wallet?: string; verified_at?: string },
): Promise<AddResult> {
  const { data, error } = await client
    .from("memberships")
    .upsert(row, { onConflict: "room_id,user_id", ignoreDuplicates: true })
    .select(membershipColumns);
  if (error) {
    if (error.code === "23503") return { ok: false, reason: "room_gone" };
    // The database's ban check (a ban that landed after ours, or a wallet it holds against)
    if (error.code === "42501" && error.details === "wallet") return { ok: false, reason: "wallet_banned" };
    if (error.code === "42501" && /banned/.test(error.message)) {
      return { ok: false, reason: "banned", until: error.details && error.details !== "permanent" ? error.details : null };
    }
    throw error;
  }
  const inserted = (data ?? [])[0] as JoinedMembership | undefined;
  if (inserted) return { ok: true, membership: inserted, created: true };
  const existing = await findMembership(row.room_id, row.user_id);
  return existing ? { ok: true, membership: existing, created: false } : { ok: false, reason: "room_gone" };
}

/** A member still qualifies: record which wallet and when. Only role member rows are re-checked. */
export async function renewVerification(roomId: string, userId: string, wallet: string): Promise<JoinedMembership | null> {
  const { data, error } = await db
    .from("memberships")
    .update({ verified_wallet: wallet, verified_at: new Date().toISOString() })
    .eq("room_id", roomId)
    .eq("user_id", userId)
    .eq("role", "member")
    .select(membershipColumns)
    .maybeSingle();
  if (error) throw error;
  return data as JoinedMembership | null;
}

/** A member no longer qualifies: the membership lapses (never an owner's or a moderator's). */
export async function removeMembership(roomId: string, userId: string): Promise<void> {
  const { error } = await db.from("memberships").delete().eq("room_id", roomId).eq("user_id", userId).eq("role", "member");
  if (error) throw error;
}

// The function's reads and writes, as the server (service_role): nonces and wallets.
import { createClient } from "npm:@supabase/supabase-js@2";
import { maxWalletsPerAccount } from "../../../lib/validation/wallet.ts";
import { ensRefreshIntervalMs } from "../../../lib/wallets/ens-freshness.ts";

export const db = createClient(Deno.env.get("SUPABASE_URL")!, Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, {
  auth: { persistSession: false, autoRefreshToken: false },
});

export interface WalletRow {
  address: string;
  user_id: string;
  ens_name: string | null;
  ens_avatar: string | null;
  ens_checked_at: string | null;
  verified_at: string;
}

const openNoncesPerUser = 10;

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 24 random letters and digits (EIP-4361 nonces are alphanumeric, at least 8). */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

/** Whether the user has a verified MFA factor (then linking needs an aal2 session, as Postgres requires for unlinking). */
export async function hasVerifiedFactor(userId: string): Promise<boolean> {
  const { data, error } = await db.auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  return data.factors.some((factor) => factor.status === "verified");
}

export async function walletCount(userId: string): Promise<number> {
  const { count, error } = await db.from("wallets").select("address", { count: "exact", head: true }).eq("user_id", userId);
  if (error) throw error;
  return count ?? 0;
}

/** Asked too often (the database's 'wallet links' limit): its words, to send as a 429. */
export class TooManyAttempts extends Error {}

export async function issueNonce(userId: string): Promise<{ nonce: string; expires_at: string }> {
  // this user's spent and expired nonces are of no further use
  await db.from("wallet_nonces").delete().eq("user_id", userId).or(`used_at.not.is.null,expires_at.lt.${new Date().toISOString()}`);
  // at most a few open requests per user: the oldest unused ones make way
  const { data: open } = await db
    .from("wallet_nonces")
    .select("nonce")
    .eq("user_id", userId)
    .order("created_at", { ascending: false })
    .range(openNoncesPerUser - 1, 1000);
  if (open?.length)
    await db
      .from("wallet_nonces")
      .delete()
      .in(
        "nonce",
        open.map((row) => row.nonce),
      );
  const { data, error } = await db
    .from("wallet_nonces")
    .insert({ nonce: randomNonce(), user_id: userId })
    .select("nonce, expires_at")
    .single();
  if (error?.code === "PT429") throw new TooManyAttempts(error.message);
  if (error) throw error;
  return data;
}

export async function findNonce(nonce: string) {
  const { data, error } = await db.from("wallet_nonces").select("nonce, user_id, expires_at, used_at").eq("nonce", nonce).maybeSingle();
  if (error) throw error;
  return data as { nonce: string; user_id: string; expires_at: string; used_at: string | null } | null;
}

/** Marks the nonce used; false when another request used it first. */
export async function consumeNonce(nonce: string, userId: string): Promise<boolean> {
  const { data, error } = await db
    .from("wallet_nonces")
    .update({ used_at: new Date().toISOString() })
    .eq("nonce", nonce)
    .eq("user_id", userId)
    .is("used_at", null)
    .select("nonce");
  if (error) throw error;
  return (data ?? []).length === 1;
}

export async function findWallet(address: string): Promise<WalletRow | null> {
  const { data, error } = await db.from("wallets").select("*").eq("address", address).maybeSingle();
  if (error) throw error;
  return data as WalletRow | null;
}

export type InsertResult = { ok: true; wallet: WalletRow } | { ok: false; reason: "taken" | "limit" };

export async function insertWallet(row: Omit<WalletRow, "verified_at">): Promise<InsertResult> {
  const { data, error } = await db
    .from("wallets")
    .insert({ ...row, verified_at: new Date().toISOString() })
    .select("*")
    .single();
  if (!error) return { ok: true, wallet: data as WalletRow };
  if (error.code === "23505") return { ok: false, reason: "taken" };
  if (error.code === "23514" && /at most/.test(error.message)) return { ok: false, reason: "limit" };
  throw error;
}

export async function updateEns(address: string, ens: { ens_name: string | null; ens_avatar: string | null }): Promise<WalletRow> {
  const { data, error } = await db
    .from("wallets")
    .update({ ...ens, ens_checked_at: new Date().toISOString() })
    .eq("address", address)
    .select("*")
    .single();
  if (error) throw error;
  return data as WalletRow;
}

/** The user's wallets whose names were last looked up over a day ago (or never). */
export async function staleWallets(userId: string): Promise<WalletRow[]> {
  const dayAgo = new Date(Date.now() - ensRefreshIntervalMs).toISOString();
  const { data, error } = await db
    .from("wallets")
    .select("*")
    .eq("user_id", userId)
    .or(`ens_checked_at.is.null,ens_checked_at.lt.${dayAgo}`)
    .limit(maxWalletsPerAccount);
  if (error) throw error;
  return (data ?? []) as WalletRow[];
}

import { cache } from "react";
import { web3Address } from "@/lib/auth/web3-identity";
import { createClient } from "@/lib/supabase/server";
import type { Database } from "@/types/database";

export type Profile = Database["public"]["Tables"]["profiles"]["Row"];

export interface CurrentUser {
  id: string;
  email: string | null;
  /** The Ethereum address a wallet (web3) user signed in with. */
  walletAddress: string | null;
  profile: Profile | null;
}

/**
 * The signed-in user for this request (verified by Supabase Auth), with their profile; null when
 * signed out or when the backend cannot be reached. Cached per request.
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => {
  const supabase = await createClient();
  const { data, error } = await supabase.auth.getUser();
  if (error || !data.user) return null;
  const { data: profile } = await supabase.from("profiles").select("*").eq("id", data.user.id).maybeSingle();
  // Wallet (web3) users have an empty email, not a missing one.
  return { id: data.user.id, email: data.user.email || null, walletAddress: web3Address(data.user), profile: profile ?? null };
});

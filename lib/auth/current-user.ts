import { cache } from "react";
import { web3AddressFromClaims } from "@/lib/auth/web3-identity";
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
 * The signed-in user for this request, with their profile; null when signed out or when the
 * backend cannot be reached. Identity comes from the session's access token, verified with
 * `getClaims()` (locally, against the project's published signing keys), so a render costs one
 * query (the profile) and no round trip to Auth. Cached per request.
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => {
  const supabase = await createClient();
  const { data, error } = await supabase.auth.getClaims();
  const claims = data?.claims;
  if (error || typeof claims?.sub !== "string" || !claims.sub) return null;
  const { data: profile } = await supabase.from("profiles").select("*").eq("id", claims.sub).maybeSingle();
  // Wallet (web3) users have an empty email, not a missing one.
  return { id: claims.sub, email: claims.email || null, walletAddress: web3AddressFromClaims(claims), profile: profile ?? null };
});

import type { SupabaseClient } from "@supabase/supabase-js";

/**
 * The signed-in user's id, from the session's access token verified with `getClaims()`: locally,
 * against the project's published signing keys (cached), so no round trip to Auth. Null when
 * signed out or the token does not verify.
 */
export async function verifiedUserId(supabase: Pick<SupabaseClient, "auth">): Promise<string | null> {
  const { data, error } = await supabase.auth.getClaims();
  return !error && typeof data?.claims.sub === "string" && data.claims.sub ? data.claims.sub : null;
}

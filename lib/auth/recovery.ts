// Recovery codes, the server's side: making a set for an account, and signing in with one.
//
// Supabase Auth raises a session to aal2 only with a factor's code, so a recovery code cannot do
// that. What it does instead: Postgres checks it (one of the caller's own unused codes, for an
// authenticator the account still has; five tries per 15 minutes) and marks it used, then the
// server removes the account's authenticators with Auth's admin API. The person's session is then
// no longer held below aal2, every other code of theirs is void (they belonged to the authenticator),
// and /account says two-factor is off until they set it up again.
// The clients are passed in, so the integration tests run exactly this against the real backend.
import type { SupabaseClient } from "@supabase/supabase-js";
import { type Result, fail, ok } from "@/lib/result";
import type { Database } from "@/types/database";
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode, recoveryMessages } from "./recovery-codes";

type Client = SupabaseClient<Database>;

/** Why a recovery code did not sign in: next to the code field, or above the form. */
export interface RecoveryRefusal {
  message: string;
  field: boolean;
}

/** Ten new codes for the caller's authenticator, replacing any earlier ones (needs a fresh authenticator code). */
export async function makeRecoveryCodes(supabase: Client, userId: string): Promise<Result<string[]>> {
  const codes = newRecoveryCodes();
  const hashes = codes.map((code) => hashRecoveryCode(userId, normaliseCode(code)));
  const { error } = await supabase.rpc("replace_recovery_codes", { code_hashes: hashes });
  return error ? fail(error.message) : ok(codes);
}

function normaliseCode(code: string): string {
  const checked = normaliseRecoveryCode(code);
  if ("error" in checked) throw new Error("A new recovery code broke its own format");
  return checked.code;
}

/**
 * Signs in with a recovery code: `supabase` acts as the signed-in person (their aal1 session),
 * `admin` is the service role's client, used only once the database has accepted the code.
 */
export async function redeemRecoveryCode(
  supabase: Client,
  admin: Client,
  userId: string,
  typed: string,
): Promise<Result<null, RecoveryRefusal>> {
  const checked = normaliseRecoveryCode(typed);
  if ("error" in checked) return fail({ message: checked.error, field: true });
  const { data: accepted, error } = await supabase.rpc("redeem_recovery_code", { code_hash: hashRecoveryCode(userId, checked.code) });
  if (error) {
    // PT429: too many tries, in words with the wait; 42501: signed out, or no two-factor to recover.
    if (error.code === "PT429") return fail({ message: error.message, field: true });
    if (error.code === "42501") return fail({ message: error.message, field: false });
    return fail({ message: recoveryMessages.failed, field: false });
  }
  if (!accepted) return fail({ message: recoveryMessages.wrong, field: true });
  return (await removeAuthenticators(admin, userId)) ? ok() : fail({ message: recoveryMessages.notFinished, field: false });
}

/** Every factor of the account, through Auth's admin API (each tried twice). */
async function removeAuthenticators(admin: Client, userId: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { data, error } = await admin.auth.admin.mfa.listFactors({ userId });
    if (error) continue;
    const results = await Promise.all(data.factors.map((factor) => admin.auth.admin.mfa.deleteFactor({ userId, id: factor.id })));
    if (results.every((result) => !result.error)) return true;
  }
  return false;
}

"use server";

// The sign-in code form's Server Action, with or without JavaScript: the browser POSTs the code
// here (never in a URL), the server's Supabase client verifies it against the account's
// authenticator, and the session cookies it sets are aal2.
import { redirect } from "next/navigation";
import { type AuthFormState, formValue } from "@/lib/auth/form-state";
import { checkTotpCode, mfaErrorMessage } from "@/lib/auth/mfa";
import { authErrorMessage } from "@/lib/auth/messages";
import { safeNextPath } from "@/lib/auth/redirect";
import { createClient } from "@/lib/supabase/server";

export async function verifySignInCodeAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const next = safeNextPath(formValue(formData, "next"));
  const checked = checkTotpCode(formValue(formData, "code"));
  if ("error" in checked) return { status: "error", values: {}, errors: { code: checked.error } };
  const supabase = await createClient();
  const { data: factors, error } = await supabase.auth.mfa.listFactors();
  if (error) return { status: "error", values: {}, errors: {}, formError: authErrorMessage(error) };
  const factor = factors.totp[0];
  // No verified authenticator (removed elsewhere meanwhile): nothing is owed.
  if (!factor) redirect(next);
  const verified = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: checked.code });
  if (verified.error) return { status: "error", values: {}, errors: { code: mfaErrorMessage(verified.error) } };
  redirect(next);
}

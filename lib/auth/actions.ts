"use server";

// Supabase Auth's forms as Server Actions, so each works before its JavaScript runs (or when it
// never does); codes and passwords only ever travel in POST bodies, never in a URL.
// - The password forms: the browser POSTs the form here, the server's Supabase client signs in and
//   sets the session cookies. With JavaScript the forms use the browser client instead
//   (components/auth/*-form) and these only run if a submit beats hydration.
// - The sign-in code (/login/mfa): verified against the account's authenticator; the session
//   cookies it sets are aal2.
// - A recovery code (/login/mfa), when the authenticator is lost: ./recovery.ts checks it and turns
//   two-factor off, and the person lands on /account, which says so.
// - Two-factor authentication on /account: set up an authenticator app (enroll, then confirm with a
//   code; its first recovery codes come with it), make new recovery codes and remove the app (each
//   with a fresh code).
// Signing in, signing up and asking for a reset have no caller yet, so they take the server client
// alone; the others act for the signed-in person (lib/server-action.ts).
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { messages } from "@/lib/messages";
import { signedIn } from "@/lib/server-action";
import { createAdminClient } from "@/lib/supabase/admin";
import { createClient } from "@/lib/supabase/server";
import { emailOnlyRules, setPasswordRules, signInRules, signUpRules } from "@/lib/validation/auth";
import { type AuthFormState, type PendingAuthenticator, type TwoFactorState, formValue } from "./form-state";
import { emailRedirect } from "./links";
import { authErrorMessage } from "./messages";
import { checkTotpCode, mfaErrorMessage, mfaMessages } from "./mfa";
import { makeRecoveryCodes, redeemRecoveryCode } from "./recovery";
import { recoveryMessages } from "./recovery-codes";
import { safeNextPath } from "./redirect";

/** The email links' redirect (./links.ts) on the origin the form was posted from, else NEXT_PUBLIC_SITE_URL. */
async function emailRedirectFromForm(next: string): Promise<string> {
  const requestHeaders = await headers();
  const host = requestHeaders.get("host");
  const origin = requestHeaders.get("origin");
  const sameSite = origin && host && URL.canParse(origin) && new URL(origin).host === host ? origin : null;
  return emailRedirect(next, sameSite ?? process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000");
}

export async function signInAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const next = safeNextPath(formValue(formData, "next"));
  const checked = signInRules({ email, password: formValue(formData, "password") });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { error } = await supabase.auth.signInWithPassword(checked.data);
  if (error)
    return {
      status: "error",
      values: { email },
      errors: {},
      formError: authErrorMessage(error),
      unconfirmed: error.code === "email_not_confirmed",
    };
  redirect(next);
}

export async function signUpAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const next = safeNextPath(formValue(formData, "next"));
  const checked = signUpRules({ email, password: formValue(formData, "password") });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { data, error } = await supabase.auth.signUp({ ...checked.data, options: { emailRedirectTo: await emailRedirectFromForm(next) } });
  if (error) return { status: "error", values: { email }, errors: {}, formError: authErrorMessage(error) };
  // With confirmations on, Supabase answers an existing address like a new one (no session, no identities).
  if (data.user && data.user.identities?.length === 0) {
    return {
      status: "error",
      values: { email },
      errors: {},
      formError: authErrorMessage({ code: "user_already_exists", message: "", status: 422, name: "AuthApiError" }),
    };
  }
  if (data.session) redirect(next);
  return { status: "sent", values: { email: checked.data.email }, errors: {} };
}

export async function resetRequestAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = formValue(formData, "email");
  const checked = emailOnlyRules({ email });
  if (!checked.ok) return { status: "error", values: { email }, errors: checked.errors };
  const supabase = await createClient();
  const { error } = await supabase.auth.resetPasswordForEmail(checked.data.email, {
    redirectTo: await emailRedirectFromForm("/account/password"),
  });
  if (error) return { status: "error", values: { email }, errors: {}, formError: authErrorMessage(error) };
  return { status: "sent", values: { email: checked.data.email }, errors: {} };
}

export async function setPasswordAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const checked = setPasswordRules({ password: formValue(formData, "password"), confirm: formValue(formData, "confirm") });
  if (!checked.ok) return { status: "error", values: {}, errors: checked.errors };
  const caller = await signedIn();
  if (!caller.ok) return { status: "error", values: {}, errors: {}, formError: caller.error };
  const { error } = await caller.data.supabase.auth.updateUser({ password: checked.data.password });
  if (error) return { status: "error", values: {}, errors: {}, formError: authErrorMessage(error) };
  return { status: "done", values: {}, errors: {} };
}

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

/** The setup form's two steps: "start" (a new secret and QR code) and "confirm" (its first code). */
export async function enrollmentAction(previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  return formValue(formData, "step") === "start" ? await startEnrollment() : await confirmEnrollment(previous, formData);
}

/** Starts setting up an authenticator app: a new secret and its QR code. */
async function startEnrollment(): Promise<TwoFactorState> {
  const caller = await signedIn();
  if (!caller.ok) return { status: "error", formError: caller.error };
  const { supabase } = caller.data;
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) return { status: "error", formError: messages.sessionEnded };
  // A setup left unconfirmed earlier is replaced rather than left to clash with this one.
  for (const factor of factors.all.filter((f) => f.status === "unverified")) await supabase.auth.mfa.unenroll({ factorId: factor.id });
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator app", issuer: "Cuepoint" });
  if (error) return { status: "error", formError: mfaErrorMessage(error) };
  return { status: "enrolling", pending: { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, uri: data.totp.uri } };
}

/** The setup in progress: from the last answer (with JavaScript) or the form's hidden fields (without). */
function pendingFrom(previous: TwoFactorState, formData: FormData): PendingAuthenticator | undefined {
  if (previous.pending) return previous.pending;
  const pending = {
    factorId: formValue(formData, "factorId"),
    qrCode: formValue(formData, "qrCode"),
    secret: formValue(formData, "secret"),
    uri: formValue(formData, "uri"),
  };
  return pending.factorId && pending.secret ? pending : undefined;
}

/** Confirms the new authenticator with its first code (the session becomes aal2), then makes its recovery codes. */
async function confirmEnrollment(previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  const pending = pendingFrom(previous, formData);
  if (!pending) return { status: "error", formError: "Start the setup again." };
  const checked = checkTotpCode(formValue(formData, "code"));
  if ("error" in checked) return { status: "enrolling", pending, codeError: checked.error };
  const caller = await signedIn();
  if (!caller.ok) return { status: "error", formError: caller.error };
  const { supabase, userId } = caller.data;
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: pending.factorId, code: checked.code });
  if (error) return { status: "enrolling", pending, codeError: mfaErrorMessage(error) };
  revalidatePath("/account");
  const codes = await makeRecoveryCodes(supabase, userId);
  return codes.ok ? { status: "enabled", recoveryCodes: codes.data } : { status: "enabled", formError: recoveryMessages.notMade };
}

/** New recovery codes after a fresh code from the authenticator; the old ones stop working at once. */
export async function regenerateRecoveryCodesAction(_previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  const factorId = formValue(formData, "factorId");
  const checked = checkTotpCode(formValue(formData, "code"));
  if ("error" in checked) return { status: "error", codeError: checked.error };
  const caller = await signedIn();
  if (!caller.ok) return { status: "error", formError: caller.error };
  const { supabase, userId } = caller.data;
  const verified = await supabase.auth.mfa.challengeAndVerify({ factorId, code: checked.code });
  if (verified.error) return { status: "error", codeError: mfaErrorMessage(verified.error) };
  const codes = await makeRecoveryCodes(supabase, userId);
  if (!codes.ok) return { status: "error", formError: codes.error };
  revalidatePath("/account");
  return { status: "regenerated", recoveryCodes: codes.data };
}

/**
 * Signs in with a recovery code instead of the authenticator's: a right, unused code turns two-factor
 * off (./recovery.ts), the session is refreshed without the factor, and the person goes to /account.
 */
export async function redeemRecoveryCodeAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const caller = await signedIn();
  if (!caller.ok) return { status: "error", values: {}, errors: {}, formError: caller.error };
  const { supabase, userId } = caller.data;
  const redeemed = await redeemRecoveryCode(supabase, createAdminClient(), userId, formValue(formData, "recoveryCode"));
  if (!redeemed.ok) {
    const { message, field } = redeemed.error;
    return field
      ? { status: "error", values: {}, errors: { recoveryCode: message } }
      : { status: "error", values: {}, errors: {}, formError: message };
  }
  // The session's cookie still lists the removed authenticator until it is refreshed.
  await supabase.auth.refreshSession();
  revalidatePath("/", "layout");
  redirect("/account");
}

/** Removes the authenticator after a fresh code from it, then refreshes the session (now aal1, no factor). */
export async function removeAuthenticatorAction(_previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  const factorId = formValue(formData, "factorId");
  const checked = checkTotpCode(formValue(formData, "code"));
  if ("error" in checked) return { status: "error", codeError: checked.error };
  const supabase = await createClient();
  const verified = await supabase.auth.mfa.challengeAndVerify({ factorId, code: checked.code });
  if (verified.error) return { status: "error", codeError: mfaErrorMessage(verified.error) };
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) return { status: "error", formError: mfaMessages.failed };
  await supabase.auth.refreshSession();
  revalidatePath("/account");
  return { status: "removed" };
}

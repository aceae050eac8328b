"use server";

// Two-factor authentication on /account: set up an authenticator app (enroll, then confirm with a
// code) and remove it (with a fresh code). Server Actions, so each step works without JavaScript;
// codes only ever travel in POST bodies.
import { revalidatePath } from "next/cache";
import { formValue } from "@/lib/auth/form-state";
import { checkTotpCode, mfaErrorMessage, mfaMessages } from "@/lib/auth/mfa";
import { createClient } from "@/lib/supabase/server";

/** The authenticator being set up: what the page shows until a code confirms it. */
export interface PendingAuthenticator {
  factorId: string;
  qrCode: string;
  secret: string;
  uri: string;
}

export interface TwoFactorState {
  status: "idle" | "enrolling" | "error" | "enabled" | "removed";
  pending?: PendingAuthenticator;
  codeError?: string;
  formError?: string;
}

const sessionEnded = "Your session has ended — sign in again.";

/** The setup form's two steps: "start" (a new secret and QR code) and "confirm" (its first code). */
export async function enrollmentAction(previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  return formValue(formData, "step") === "start" ? await startEnrollment() : await confirmEnrollment(previous, formData);
}

/** Starts setting up an authenticator app: a new secret and its QR code. */
async function startEnrollment(): Promise<TwoFactorState> {
  const supabase = await createClient();
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) return { status: "error", formError: sessionEnded };
  // A setup left unconfirmed earlier is replaced rather than left to clash with this one.
  for (const factor of factors.all.filter((f) => f.status === "unverified")) await supabase.auth.mfa.unenroll({ factorId: factor.id });
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator app", issuer: "Cuepoint" });
  if (error) return { status: "error", formError: mfaErrorMessage(error) };
  return { status: "enrolling", pending: { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret, uri: data.totp.uri } };
}

/** The setup in progress: from the last answer (with JavaScript) or the form's hidden fields (without). */
function pendingFrom(previous: TwoFactorState, formData: FormData): PendingAuthenticator | undefined {
  if (previous.pending) return previous.pending;
  const pending = { factorId: formValue(formData, "factorId"), qrCode: formValue(formData, "qrCode"), secret: formValue(formData, "secret"), uri: formValue(formData, "uri") };
  return pending.factorId && pending.secret ? pending : undefined;
}

/** Confirms the new authenticator with its first code; the session becomes aal2. */
async function confirmEnrollment(previous: TwoFactorState, formData: FormData): Promise<TwoFactorState> {
  const pending = pendingFrom(previous, formData);
  if (!pending) return { status: "error", formError: "Start the setup again." };
  const checked = checkTotpCode(formValue(formData, "code"));
  if ("error" in checked) return { status: "enrolling", pending, codeError: checked.error };
  const supabase = await createClient();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: pending.factorId, code: checked.code });
  if (error) return { status: "enrolling", pending, codeError: mfaErrorMessage(error) };
  revalidatePath("/account");
  return { status: "enabled" };
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

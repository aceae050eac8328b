import type { Factor, Session } from "@supabase/supabase-js";

// Two-factor sign-in: which sessions still owe the code. Supabase's own rule (what
// mfa.getAuthenticatorAssuranceLevel() answers): a user with a verified factor needs aal2.

/** Where a signed-in person who still owes their code is sent, with where they were going. */
export const secondFactorPath = "/login/mfa";

/**
 * The verified factors of the session's user as the session cookie holds them (no request to Auth).
 * Only for routing and display: the cookie is not authentic, so Auth checks every factor operation
 * and Postgres' aal2 policies guard the writes. Read through the property descriptor because
 * auth-js wraps a server-side session's user in a proxy that warns on every read.
 */
export function sessionFactors(session: Session | null): Factor[] {
  if (!session?.user) return [];
  const factors: unknown = Object.getOwnPropertyDescriptor(session.user, "factors")?.value;
  return Array.isArray(factors) ? (factors as Factor[]).filter((factor) => factor.status === "verified") : [];
}

/** A session below aal2 whose user has a verified factor: it must be asked for the code first. */
export function owesSecondFactor(aal: unknown, session: Session | null): boolean {
  return aal !== "aal2" && sessionFactors(session).length > 0;
}

/** The one-time codes authenticator apps show: six digits (spaces people type are dropped). */
export function checkTotpCode(value: string): { code: string } | { error: string } {
  const code = value.replace(/\s+/g, "");
  return /^\d{6}$/.test(code) ? { code } : { error: mfaMessages.codeFormat };
}

export const mfaMessages = {
  codeFormat: "Enter the 6-digit code from your authenticator app",
  wrongCode: "That code isn't right. Check your authenticator app and enter the code it shows now.",
  expired: "That code request expired. Enter the code your app shows now.",
  tooMany: "You've set up as many authenticators as an account may have. Remove one first.",
  needsCode: "Enter a code from your authenticator app first.",
  failed: "We couldn't check your code. Try again in a moment.",
} as const;

/** Supabase Auth's MFA error codes, in words a person can act on. */
export function mfaErrorMessage(error: { code?: string } | null | undefined): string {
  switch (error?.code) {
    case "mfa_verification_failed":
      return mfaMessages.wrongCode;
    case "mfa_challenge_expired":
    case "mfa_ip_address_mismatch":
    case "mfa_factor_not_found":
      return mfaMessages.expired;
    case "too_many_enrolled_mfa_factors":
      return mfaMessages.tooMany;
    case "insufficient_aal":
      return mfaMessages.needsCode;
    default:
      return mfaMessages.failed;
  }
}

import type { AuthError } from "@supabase/supabase-js";
import { messages } from "@/lib/messages";

/** Supabase Auth's error codes, said in words a person can act on. */
const byCode: Record<string, string> = {
  invalid_credentials: "That email and password don't match. Try again, or reset your password.",
  email_not_confirmed: "Confirm your email first — open the link we sent you, or send a new one below.",
  user_already_exists: "An account with this email already exists — sign in instead.",
  email_exists: "An account with this email already exists — sign in instead.",
  weak_password: "Choose a stronger password: at least 8 characters.",
  same_password: "Your new password must be different from the old one.",
  over_email_send_rate_limit: "We've sent several emails already — wait a minute, then try again.",
  over_request_rate_limit: "Too many attempts — wait a minute, then try again.",
  otp_expired: "This link has expired — send a new one.",
  flow_state_not_found: "This link has already been used or was opened in another browser — send a new one.",
  flow_state_expired: "This link has expired — send a new one.",
  bad_code_verifier: "This link was opened in a different browser than the one you asked from — send a new one.",
  signup_disabled: "Sign-ups are closed right now.",
  email_address_invalid: "That email address can't receive mail — check it and try again.",
  validation_failed: "Check what you entered and try again.",
  session_not_found: messages.sessionEnded,
  user_banned: "This account is suspended.",
};

export const networkMessage = "We couldn't reach Cuepoint — check your connection and try again.";

export function authErrorMessage(error: Pick<AuthError, "message" | "code" | "status" | "name"> | null | undefined): string {
  if (!error) return networkMessage;
  if (error.code && byCode[error.code]) return byCode[error.code];
  if (!error.status || error.name === "AuthRetryableFetchError") return networkMessage;
  return error.message || networkMessage;
}

/** Why an email link did not work, for /auth/error?reason=… */
export const linkErrorReasons = {
  // Supabase Auth answers otp_expired for an expired, an already used and an unknown token hash alike.
  expired: {
    title: "This link has expired or was already used",
    body: "Links in our emails work once, for a limited time. If you're not signed in, send yourself a new one.",
  },
  used: { title: "This link has already been used", body: "Each link works once. If you're not signed in, send yourself a new one." },
  invalid: { title: "This link isn't valid", body: "It may have been copied incompletely or changed. Send yourself a new one." },
  other_browser: {
    title: "Open this link where you asked for it",
    body: "For your security this kind of link only works in the browser where you requested it. Send a new one from this browser.",
  },
} as const;

export type LinkErrorReason = keyof typeof linkErrorReasons;

export function linkErrorReason(code: string | null | undefined): LinkErrorReason {
  switch (code) {
    case "otp_expired":
    case "flow_state_expired":
      return "expired";
    case "flow_state_not_found":
      return "used";
    case "bad_code_verifier":
      return "other_browser";
    default:
      return "invalid";
  }
}

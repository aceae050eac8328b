// Passkeys: their names, when one may be removed, and what a failed ceremony means in words.
// Pure, so the words and rules are tested without a browser (tests/unit/passkeys.test.ts).

export const passkeyNameMaxLength = 60;

export const passkeyMessages = {
  cancelledAdd: "You cancelled — nothing was added.",
  // A browser answers a dismissed prompt and "no passkey here" alike, on purpose (so a site can't
  // probe which passkeys a device holds): the words name both.
  cancelledSignIn:
    "You cancelled, or there's no passkey for Cuepoint on this device — try again, or sign in another way and add one on your account page.",
  notSupported: "This browser can't use passkeys. Try a current version of Chrome, Safari, Edge or Firefox.",
  alreadyRegistered: "This device already has a passkey for your account — you can use that one.",
  timedOut: "That took too long, so it stopped. Try again.",
  noPasskeyHere: "No passkey for Cuepoint on this device — sign in another way, then add one on your account page.",
  tooMany: "You have as many passkeys as an account may have. Remove one first.",
  needsCode: "Enter the code from your authenticator app first, then manage your passkeys.",
  off: "Passkeys aren't available on Cuepoint right now. Sign in another way.",
  failed: "We couldn't finish with your passkey. Try again in a moment.",
  notFound: "That passkey was already removed. Reload the page to see your passkeys.",
  lastWayIn:
    "This passkey is the last way into your account — it has no email address to sign in with and no other passkey. Add another passkey first, then remove this one.",
  nameRequired: "Give this passkey a name, like “MacBook Touch ID”.",
  nameTooLong: `Keep the name to ${passkeyNameMaxLength} characters or fewer.`,
} as const;

/** Which ceremony failed: adding a passkey on /account, or signing in with one on /login. */
export type PasskeyCeremony = "add" | "sign-in";

/** What auth-js hands back when a passkey ceremony fails: an AuthError (code, status) or a WebAuthnError (code, cause). */
export interface PasskeyFailure {
  name?: string;
  code?: string;
  message?: string;
  status?: number;
  cause?: unknown;
}

/** A NotAllowedError that lasted this long ran out of time rather than being dismissed. */
const timeoutAfterMs = 120_000;

const causeName = (error: PasskeyFailure): string | undefined =>
  error.cause && typeof error.cause === "object" && "name" in error.cause ? String((error.cause as { name: unknown }).name) : undefined;

/**
 * A failed passkey ceremony in words. `elapsedMs` is how long the browser's prompt was open: a
 * browser reports a dismissed prompt and one that ran out of time with the same error.
 */
export function passkeyErrorMessage(error: PasskeyFailure | null | undefined, ceremony: PasskeyCeremony, elapsedMs = 0): string {
  if (!error) return passkeyMessages.failed;
  if (error.message === "Browser does not support WebAuthn") return passkeyMessages.notSupported;
  switch (error.code) {
    case "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED":
    case "webauthn_credential_exists":
      return passkeyMessages.alreadyRegistered;
    case "ERROR_CEREMONY_ABORTED":
      return ceremony === "add" ? passkeyMessages.cancelledAdd : passkeyMessages.cancelledSignIn;
    case "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT":
    case "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT":
    case "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG":
    case "ERROR_INVALID_DOMAIN":
    case "ERROR_INVALID_RP_ID":
      return passkeyMessages.notSupported;
    case "webauthn_challenge_expired":
    case "webauthn_challenge_not_found":
      return passkeyMessages.timedOut;
    // Sign-in: the device answered with a passkey Cuepoint does not know (removed on the account page).
    case "webauthn_verification_failed":
      return ceremony === "sign-in" ? passkeyMessages.noPasskeyHere : passkeyMessages.failed;
    case "too_many_passkeys":
      return passkeyMessages.tooMany;
    case "insufficient_aal":
      return passkeyMessages.needsCode;
    case "passkey_disabled":
      return passkeyMessages.off;
  }
  const name = causeName(error) ?? error.name;
  if (name === "NotAllowedError") {
    if (elapsedMs >= timeoutAfterMs) return passkeyMessages.timedOut;
    return ceremony === "add" ? passkeyMessages.cancelledAdd : passkeyMessages.cancelledSignIn;
  }
  if (name === "InvalidStateError") return passkeyMessages.alreadyRegistered;
  if (name === "NotSupportedError" || name === "SecurityError") return passkeyMessages.notSupported;
  return passkeyMessages.failed;
}

/** A ceremony that was replaced by another (the autofill request when the button is pressed): not a failure to show. */
export function isSupersededCeremony(error: PasskeyFailure | null | undefined): boolean {
  return error?.code === "ERROR_CEREMONY_ABORTED";
}

/**
 * A name for a new passkey from the device it is made on, which the person can change before adding
 * it: "Mac (Safari)", "iPhone (Chrome)", "Windows (Edge)", or "Passkey" when the browser does not say.
 */
export function defaultPasskeyName(userAgent: string): string {
  const device = /iPhone/.test(userAgent)
    ? "iPhone"
    : /iPad/.test(userAgent)
      ? "iPad"
      : /Android/.test(userAgent)
        ? "Android"
        : /Macintosh|Mac OS X/.test(userAgent)
          ? "Mac"
          : /Windows/.test(userAgent)
            ? "Windows"
            : /CrOS/.test(userAgent)
              ? "Chromebook"
              : /Linux/.test(userAgent)
                ? "Linux"
                : null;
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /(Chrome|Chromium|CriOS)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  if (device && browser) return `${device} (${browser})`;
  return device ?? browser ?? "Passkey";
}

/** A passkey's name as it is saved: trimmed, spaces collapsed; or why it can't be. */
export function checkPasskeyName(value: string): { name: string } | { error: string } {
  const name = value.replace(/\s+/g, " ").trim();
  if (!name) return { error: passkeyMessages.nameRequired };
  if ([...name].length > passkeyNameMaxLength) return { error: passkeyMessages.nameTooLong };
  return { name };
}

/**
 * Whether the account has a confirmed email address: then a sign-in link or a password reset reaches
 * the person, so a passkey is never their last way in. (Whether they know a password can't be told:
 * Supabase Auth gives an account made by an email link, or by an administrator, a random one.)
 */
export function hasEmailSignIn(user: { email?: string | null; email_confirmed_at?: string | null }): boolean {
  return Boolean(user.email && user.email_confirmed_at);
}

/**
 * Whether a passkey may go: not when it is the last way in — no email address to sign in with (a
 * wallet's account) and no other passkey.
 */
export function mayRemovePasskey({ emailSignIn, passkeys }: { emailSignIn: boolean; passkeys: number }): boolean {
  return emailSignIn || passkeys > 1;
}

const dayFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A passkey's day (added, last used): "3 Nov 2026", the same on the server and in the browser. */
export function passkeyDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? dayFormat.format(time) : "";
}

import { describe, expect, test } from "vitest";
import {
  checkPasskeyName,
  defaultPasskeyName,
  hasEmailSignIn,
  isSupersededCeremony,
  mayRemovePasskey,
  passkeyDate,
  passkeyErrorMessage,
  passkeyMessages,
} from "@/lib/passkeys/rules";

// The errors as auth-js hands them over: a WebAuthnError wraps the browser's DOMException (as its
// cause, with a code); an AuthApiError carries Auth's code and status.
const domException = (name: string) => Object.assign(new Error("The operation either timed out or was not allowed."), { name });
const webAuthnError = (code: string, causeName: string) => ({ name: causeName, code, message: "", cause: domException(causeName) });
const authError = (code: string, status = 400) => ({ name: "AuthApiError", code, status, message: code });

describe("passkeyErrorMessage", () => {
  test("a dismissed prompt: nothing was added / still signed out", () => {
    const dismissed = webAuthnError("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "NotAllowedError");
    expect(passkeyErrorMessage(dismissed, "add", 3_000)).toBe("You cancelled — nothing was added.");
    expect(passkeyErrorMessage(dismissed, "sign-in", 3_000)).toBe(passkeyMessages.cancelledSignIn);
    expect(passkeyMessages.cancelledSignIn).toContain("no passkey for Cuepoint on this device");
  });

  test("the same error after the prompt was open two minutes or more: it timed out", () => {
    const dismissed = webAuthnError("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "NotAllowedError");
    expect(passkeyErrorMessage(dismissed, "add", 120_000)).toBe(passkeyMessages.timedOut);
    expect(passkeyErrorMessage(dismissed, "sign-in", 300_000)).toBe(passkeyMessages.timedOut);
    expect(passkeyErrorMessage(authError("webauthn_challenge_expired"), "sign-in")).toBe(passkeyMessages.timedOut);
  });

  test("this device already holds one of the account's passkeys", () => {
    expect(passkeyErrorMessage(webAuthnError("ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", "InvalidStateError"), "add")).toBe(
      passkeyMessages.alreadyRegistered,
    );
    expect(passkeyErrorMessage(authError("webauthn_credential_exists", 422), "add")).toBe(passkeyMessages.alreadyRegistered);
  });

  test("a browser without WebAuthn, or an authenticator that can't make a passkey", () => {
    expect(passkeyErrorMessage({ name: "AuthUnknownError", message: "Browser does not support WebAuthn" }, "sign-in")).toBe(
      "This browser can't use passkeys. Try a current version of Chrome, Safari, Edge or Firefox.",
    );
    expect(
      passkeyErrorMessage(webAuthnError("ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT", "ConstraintError"), "add"),
    ).toBe(passkeyMessages.notSupported);
  });

  test("a passkey the device still has but Cuepoint no longer knows", () => {
    expect(passkeyErrorMessage(authError("webauthn_verification_failed"), "sign-in")).toBe(
      "No passkey for Cuepoint on this device — sign in another way, then add one on your account page.",
    );
    expect(passkeyErrorMessage(authError("webauthn_verification_failed"), "add")).toBe(passkeyMessages.failed);
  });

  test("Auth's other refusals, and anything unknown, never as a raw message", () => {
    expect(passkeyErrorMessage(authError("too_many_passkeys", 422), "add")).toBe(passkeyMessages.tooMany);
    expect(passkeyErrorMessage(authError("insufficient_aal", 403), "add")).toBe(passkeyMessages.needsCode);
    expect(passkeyErrorMessage(authError("passkey_disabled"), "sign-in")).toBe(passkeyMessages.off);
    expect(passkeyErrorMessage(authError("unexpected_failure", 500), "add")).toBe(passkeyMessages.failed);
    expect(passkeyErrorMessage(null, "add")).toBe(passkeyMessages.failed);
  });

  test("a ceremony replaced by a newer one is not a failure to show", () => {
    const aborted = webAuthnError("ERROR_CEREMONY_ABORTED", "AbortError");
    expect(isSupersededCeremony(aborted)).toBe(true);
    expect(isSupersededCeremony(webAuthnError("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "NotAllowedError"))).toBe(false);
    expect(passkeyErrorMessage(aborted, "add")).toBe(passkeyMessages.cancelledAdd);
  });
});

describe("defaultPasskeyName", () => {
  test.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
      "Mac (Safari)",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0 Mobile/15E148 Safari/604.1",
      "iPhone (Chrome)",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Safari/537.36 Edg/123.0",
      "Windows (Edge)",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Mobile Safari/537.36",
      "Android (Chrome)",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Linux (Firefox)"],
    ["", "Passkey"],
  ])("%s → %s", (userAgent, name) => {
    expect(defaultPasskeyName(userAgent)).toBe(name);
  });
});

describe("checkPasskeyName", () => {
  test("trimmed, inner spaces collapsed", () => {
    expect(checkPasskeyName("  MacBook   Touch ID ")).toEqual({ name: "MacBook Touch ID" });
  });
  test("empty, or longer than 60 characters (emoji count as one)", () => {
    expect(checkPasskeyName("   ")).toEqual({ error: passkeyMessages.nameRequired });
    expect(checkPasskeyName("🔑".repeat(60))).toEqual({ name: "🔑".repeat(60) });
    expect(checkPasskeyName("a".repeat(61))).toEqual({ error: "Keep the name to 60 characters or fewer." });
  });
});

describe("the last way in", () => {
  test("stays: no email address to sign in with and no other passkey", () => {
    expect(mayRemovePasskey({ emailSignIn: false, passkeys: 1 })).toBe(false);
    expect(mayRemovePasskey({ emailSignIn: false, passkeys: 2 })).toBe(true);
    expect(mayRemovePasskey({ emailSignIn: true, passkeys: 1 })).toBe(true);
  });
  test("an email address counts once it is confirmed", () => {
    expect(hasEmailSignIn({ email: "a@example.test", email_confirmed_at: "2026-11-01T00:00:00Z" })).toBe(true);
    expect(hasEmailSignIn({ email: "a@example.test", email_confirmed_at: null })).toBe(false);
    expect(hasEmailSignIn({ email: "", email_confirmed_at: "2026-11-01T00:00:00Z" })).toBe(false);
    expect(hasEmailSignIn({})).toBe(false);
  });
});

test("passkeyDate: a day, the same wherever it renders; nothing for a bad date", () => {
  expect(passkeyDate("2026-11-03T23:30:00Z")).toBe("3 Nov 2026");
  expect(passkeyDate("not a date")).toBe("");
});

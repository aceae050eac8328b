// Who owes a second factor, the code rule, and what each MFA error says.
import type { Session } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { checkTotpCode, mfaErrorMessage, mfaMessages, owesSecondFactor, sessionFactors } from "@/lib/auth/mfa";

const session = (factors?: { id: string; status: string; factor_type: string }[]) =>
  ({ access_token: "t", user: { id: "u", ...(factors ? { factors } : {}) } }) as unknown as Session;
const verified = { id: "f1", status: "verified", factor_type: "totp" };
const unverified = { id: "f2", status: "unverified", factor_type: "totp" };

describe("owesSecondFactor", () => {
  test("an aal1 session of a user with a verified factor owes the code; aal2 does not", () => {
    expect(owesSecondFactor("aal1", session([verified]))).toBe(true);
    expect(owesSecondFactor(undefined, session([verified]))).toBe(true);
    expect(owesSecondFactor("aal2", session([verified]))).toBe(false);
  });

  test("no factor, only an unverified one, or no session: nothing is owed", () => {
    expect(owesSecondFactor("aal1", session())).toBe(false);
    expect(owesSecondFactor("aal1", session([unverified]))).toBe(false);
    expect(owesSecondFactor("aal1", null)).toBe(false);
    expect(sessionFactors(session([unverified, verified]))).toEqual([verified]);
  });

  test("reads the factors without tripping auth-js' warning proxy on a server-side session's user", () => {
    let reads = 0;
    const user = new Proxy(
      { id: "u", factors: [verified] },
      { get: (target, prop, receiver) => (reads++, Reflect.get(target, prop, receiver)) },
    );
    expect(sessionFactors({ user } as unknown as Session)).toEqual([verified]);
    expect(reads).toBe(0);
  });
});

describe("checkTotpCode", () => {
  test("six digits, spaces dropped; anything else is the format message", () => {
    expect(checkTotpCode("123 456")).toEqual({ code: "123456" });
    expect(checkTotpCode("12345")).toEqual({ error: mfaMessages.codeFormat });
    expect(checkTotpCode("12345a")).toEqual({ error: mfaMessages.codeFormat });
    expect(checkTotpCode("")).toEqual({ error: mfaMessages.codeFormat });
  });
});

describe("mfaErrorMessage", () => {
  test.each([
    ["mfa_verification_failed", mfaMessages.wrongCode],
    ["mfa_challenge_expired", mfaMessages.expired],
    ["too_many_enrolled_mfa_factors", mfaMessages.tooMany],
    ["insufficient_aal", mfaMessages.needsCode],
    ["something_else", mfaMessages.failed],
  ])("%s", (code, message) => {
    expect(mfaErrorMessage({ code })).toBe(message);
  });
});

import { describe, expect, test } from "vitest";
import { authErrorMessage, linkErrorReason, linkErrorReasons, networkMessage } from "../../lib/auth/messages";

describe("authErrorMessage", () => {
  test("says Supabase Auth's error codes in words", () => {
    expect(authErrorMessage({ code: "invalid_credentials", message: "Invalid login credentials", status: 400, name: "AuthApiError" })).toBe(
      "That email and password don't match. Try again, or reset your password.",
    );
    expect(authErrorMessage({ code: "email_not_confirmed", message: "Email not confirmed", status: 400, name: "AuthApiError" })).toMatch(
      /^Confirm your email first/,
    );
  });

  test("a network failure or a missing error says to check the connection", () => {
    expect(authErrorMessage(null)).toBe(networkMessage);
    expect(authErrorMessage({ message: "Failed to fetch", status: 0, name: "AuthRetryableFetchError", code: undefined })).toBe(
      networkMessage,
    );
  });

  test("an unknown code falls back to Auth's own message", () => {
    expect(authErrorMessage({ code: "something_new", message: "Something new happened", status: 400, name: "AuthApiError" })).toBe(
      "Something new happened",
    );
  });
});

describe("linkErrorReason", () => {
  test.each([
    ["otp_expired", "expired"],
    ["flow_state_expired", "expired"],
    ["flow_state_not_found", "used"],
    ["bad_code_verifier", "other_browser"],
    [null, "invalid"],
    ["anything_else", "invalid"],
  ] as const)("%s → %s", (code, reason) => {
    expect(linkErrorReason(code)).toBe(reason);
    expect(linkErrorReasons[reason].title.length).toBeGreaterThan(0);
  });
});

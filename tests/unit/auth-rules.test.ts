import { describe, expect, test } from "vitest";
import { authMessages, checkEmail, emailOnlyRules, setPasswordRules, signInRules, signUpRules } from "../../lib/validation/auth";

describe("checkEmail", () => {
  test.each(["ada@example.com", "  Ada.Lovelace+cue@Mail.Example.co.uk ", "a_b-c@sub-domain.example.io"])(
    "accepts %j, trimmed and lower-cased",
    (value) => {
      expect(checkEmail(value)).toEqual({ email: value.trim().toLowerCase() });
    },
  );

  test.each(["", "   ", "not-an-email", "someone@", "@example.com", "x@y", "no at sign", "a@b..com", "a@-b.com", "a b@c.com"])(
    "refuses %j",
    (value) => {
      expect(checkEmail(value)).toEqual({ error: authMessages.emailInvalid });
    },
  );
});

test("sign-in needs an email and any password", () => {
  expect(signInRules({ email: " Ada@Example.com", password: "x" })).toEqual({
    ok: true,
    data: { email: "ada@example.com", password: "x" },
  });
  expect(signInRules({ email: "someone@", password: "" })).toEqual({
    ok: false,
    errors: { email: authMessages.emailInvalid, password: authMessages.passwordRequired },
  });
});

test("sign-up passwords have 8 to 72 characters", () => {
  expect(signUpRules({ email: "ada@example.com", password: "12345678" }).ok).toBe(true);
  expect(signUpRules({ email: "ada@example.com", password: "1234567" })).toEqual({
    ok: false,
    errors: { password: authMessages.passwordTooShort },
  });
  expect(signUpRules({ email: "ada@example.com", password: "x".repeat(73) })).toEqual({
    ok: false,
    errors: { password: authMessages.passwordTooLong },
  });
  expect(signUpRules({ email: "nope", password: "short" })).toEqual({
    ok: false,
    errors: { email: authMessages.emailInvalid, password: authMessages.passwordTooShort },
  });
});

test("email-only forms", () => {
  expect(emailOnlyRules({ email: "ADA@example.com " })).toEqual({ ok: true, data: { email: "ada@example.com" } });
  expect(emailOnlyRules({ email: "x@y" })).toEqual({ ok: false, errors: { email: authMessages.emailInvalid } });
});

test("a new password must be repeated exactly, and is checked for length first", () => {
  expect(setPasswordRules({ password: "brand-new-7", confirm: "brand-new-7" }).ok).toBe(true);
  expect(setPasswordRules({ password: "brand-new-7", confirm: "brand-new-8" })).toEqual({
    ok: false,
    errors: { confirm: authMessages.passwordsDiffer },
  });
  expect(setPasswordRules({ password: "short", confirm: "other" })).toEqual({
    ok: false,
    errors: { password: authMessages.passwordTooShort },
  });
});

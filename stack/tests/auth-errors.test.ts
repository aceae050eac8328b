// Supabase Auth's errors: status, `error_code` and body shape (both the legacy shape and the
// 2024-01-01 API version auth-js asks for), and the behaviours config.toml switches, on private
// in-process Auth servers built from the project's config with one setting changed.
import { createClient } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { authServerWith } from "./auth-fixture.ts";
import { config } from "./helpers/stack.ts";
import { anonKey, authFetch, createConfirmedUser, serviceRoleKey, uniqueEmail } from "./auth-helpers.ts";

type Case = [name: string, path: string, init: RequestInit, status: number, code: string, message: string | RegExp];

const post = (body: unknown): RequestInit => ({ method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });

const cases: Case[] = [
  ["malformed JSON", "/signup", post("{not json"), 400, "bad_json", /^Could not parse request body as JSON: /],
  ["a JSON array body", "/token?grant_type=password", post("[1,2]"), 400, "bad_json", /^Could not parse request body as JSON/],
  [
    "a number where a string belongs",
    "/signup",
    post({ email: 42, password: "long-enough-1" }),
    400,
    "bad_json",
    /cannot unmarshal number/,
  ],
  ["sign-up without a password", "/signup", post({ email: "x@y.test" }), 400, "validation_failed", "Signup requires a valid password"],
  [
    "sign-up with a weak password",
    "/signup",
    post({ email: "x@y.test", password: "short" }),
    422,
    "weak_password",
    "Password should be at least 8 characters.",
  ],
  [
    "sign-up with an invalid email",
    "/signup",
    post({ email: "not-an-email", password: "long-enough-1" }),
    400,
    "validation_failed",
    "Unable to validate email address: invalid format",
  ],
  [
    "sign-up without an email or phone (anonymous, off in config.toml)",
    "/signup",
    post({ password: "long-enough-1" }),
    422,
    "anonymous_provider_disabled",
    "Anonymous sign-ins are disabled",
  ],
  [
    "sign-up by phone",
    "/signup",
    post({ phone: "+15555550100", password: "long-enough-1" }),
    400,
    "phone_provider_disabled",
    "Phone signups are disabled",
  ],
  [
    "half a PKCE challenge",
    "/signup",
    post({ email: "x@y.test", password: "long-enough-1", code_challenge: "a".repeat(43) }),
    400,
    "validation_failed",
    "PKCE flow requires code_challenge_method and code_challenge",
  ],
  ["password grant without credentials", "/token?grant_type=password", post({}), 400, "invalid_credentials", "Invalid login credentials"],
  ["refresh grant without a token", "/token?grant_type=refresh_token", post({}), 400, "validation_failed", "refresh_token required"],
  [
    "pkce grant without code and verifier",
    "/token?grant_type=pkce",
    post({}),
    400,
    "validation_failed",
    "invalid request: both auth code and code verifier should be non-empty",
  ],
  [
    "pkce grant with an unknown code",
    "/token?grant_type=pkce",
    post({ auth_code: "0d5e3a52-0000-4000-8000-000000000000", code_verifier: "v".repeat(43) }),
    404,
    "flow_state_not_found",
    "invalid flow state, no valid flow state found",
  ],
  ["verify without a type", "/verify", post({ token_hash: "abc" }), 400, "validation_failed", "Verify requires a verification type"],
  [
    "verify with an unknown type",
    "/verify",
    post({ type: "bogus", token_hash: "abc" }),
    400,
    "validation_failed",
    "Unsupported verification type",
  ],
  [
    "verify with a token hash and an email",
    "/verify",
    post({ type: "magiclink", token_hash: "abc", email: "x@y.test" }),
    400,
    "validation_failed",
    "Only the token_hash and type should be provided",
  ],
  [
    "verify with both a token and a token hash",
    "/verify",
    post({ type: "magiclink", token_hash: "abc", token: "123456", email: "x@y.test" }),
    400,
    "validation_failed",
    "Verify requires either a token or a token hash",
  ],
  [
    "verify with an unknown token hash",
    "/verify",
    post({ type: "magiclink", token_hash: "0".repeat(56) }),
    403,
    "otp_expired",
    "Email link is invalid or has expired",
  ],
  [
    "verify with a wrong OTP",
    "/verify",
    post({ type: "email", email: "ada@cuepoint.test", token: "000000" }),
    403,
    "otp_expired",
    "Token has expired or is invalid",
  ],
  ["otp without an email", "/otp", post({}), 422, "validation_failed", "One of email or phone must be set"],
  ["recover without an email", "/recover", post({}), 422, "validation_failed", "Password recovery requires an email"],
  [
    "resend of a signup without an email",
    "/resend",
    post({ type: "signup" }),
    400,
    "validation_failed",
    "Type provided requires an email address",
  ],
  [
    "recover with an invalid email",
    "/recover",
    post({ email: "nope" }),
    400,
    "validation_failed",
    "Unable to validate email address: invalid format",
  ],
  [
    "resend with an unknown type",
    "/resend",
    post({ type: "carrier-pigeon", email: "x@y.test" }),
    400,
    "validation_failed",
    "Missing one of these types: signup, email_change, sms, phone_change",
  ],
  [
    "web3 with an unknown chain",
    "/token?grant_type=web3",
    post({ chain: "dogecoin", message: "m", signature: "s" }),
    400,
    "web3_unsupported_chain",
    "Unsupported chain",
  ],
  [
    "an OAuth provider that is off",
    "/authorize?provider=github",
    { method: "GET" },
    400,
    "validation_failed",
    "Unsupported provider: provider is not enabled",
  ],
  [
    "an unknown OAuth provider",
    "/authorize?provider=myspace",
    { method: "GET" },
    400,
    "validation_failed",
    "Unsupported provider: Provider myspace could not be found",
  ],
  ["an OAuth callback with no flow", "/callback", { method: "GET" }, 400, "bad_oauth_callback", "OAuth state parameter missing"],
  ["an unknown path", "/nope", { method: "GET" }, 404, "not_found", "Not Found"],
  ["a method the path does not take", "/signup", { method: "DELETE" }, 405, "method_not_allowed", "Method Not Allowed"],
];

describe("error bodies", () => {
  test.each(cases)("%s", async (_name, path, init, status, code, message) => {
    const versioned = await authFetch(path, { ...init, apiVersion: true });
    expect(versioned.status).toBe(status);
    expect(versioned.body.code).toBe(code);
    expect(versioned.body.message).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
    expect(versioned.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    const legacy = await authFetch(path, init);
    expect(legacy.status).toBe(status);
    expect(legacy.body).toMatchObject({ code: status, error_code: code });
    expect(legacy.body.msg).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
  });

  test("weak_password carries its reasons in both shapes", async () => {
    const body = { email: "x@y.test", password: "short" };
    expect((await authFetch("/signup", { ...post(body), apiVersion: true })).body).toEqual({
      code: "weak_password",
      message: "Password should be at least 8 characters.",
      weak_password: { reasons: ["length"] },
    });
    expect((await authFetch("/signup", post(body))).body).toEqual({
      code: 422,
      error_code: "weak_password",
      msg: "Password should be at least 8 characters.",
      weak_password: { reasons: ["length"] },
    });
  });

  test("admin API errors", async () => {
    const asAdmin = (path: string, init: RequestInit = {}) => authFetch(path, { ...init, bearer: serviceRoleKey, apiVersion: true });
    expect(await asAdmin("/admin/users/not-a-uuid")).toMatchObject({
      status: 404,
      body: { code: "validation_failed", message: "user_id must be an UUID" },
    });
    expect(await asAdmin("/admin/users/7d3f0f5e-0000-4000-8000-000000000000")).toMatchObject({
      status: 404,
      body: { code: "user_not_found", message: "User not found" },
    });
    expect(await asAdmin("/admin/users", post({}))).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "Cannot create a user without either an email or phone" },
    });
    expect(await asAdmin("/admin/users", post({ email: uniqueEmail("badid"), id: "nope" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "ID must conform to the uuid v4 format" },
    });
    expect(await asAdmin("/admin/users", post({ email: uniqueEmail("ban"), ban_duration: "forever" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
    expect(await asAdmin("/admin/generate_link", post({ type: "teleport", email: "x@y.test" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
  });

  test("an unsupported grant type is GoTrue's invalid_credentials with the message unsupported_grant_type", async () => {
    expect(await authFetch("/token?grant_type=magic", post({}))).toMatchObject({
      status: 400,
      body: { code: 400, error_code: "invalid_credentials", msg: "unsupported_grant_type" },
    });
    expect(await authFetch("/token", post({}))).toMatchObject({
      status: 400,
      body: { error_code: "invalid_credentials", msg: "unsupported_grant_type" },
    });
  });

  test("supabase-js surfaces code, status and message", async () => {
    const user = await createConfirmedUser("errs");
    const supabase = createClient(`http://127.0.0.1:${config.apiPort}`, anonKey, { auth: { persistSession: false } });
    const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: "wrong-password" });
    expect(error).toMatchObject({ name: "AuthApiError", status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
  });
});

describe("config.toml switches", () => {
  test("enable_signup = false: signup_disabled, for sign-up and for a magic link to a new address", async () => {
    const { supabase } = await authServerWith({ enable_signup: false });
    expect((await supabase().auth.signUp({ email: uniqueEmail("closed"), password: "long-enough-1" })).error).toMatchObject({
      status: 422,
      code: "signup_disabled",
      message: "Signups not allowed for this instance",
    });
    expect((await supabase().auth.signInWithOtp({ email: uniqueEmail("closed") })).error).toMatchObject({
      status: 422,
      code: "signup_disabled",
    });
  });

  test("confirmations off: sign-up returns a session; signing up again is user_already_exists", async () => {
    const { supabase, inbox } = await authServerWith({ email: { enable_confirmations: false } });
    const email = uniqueEmail("autoconfirm");
    const first = await supabase().auth.signUp({ email, password: "long-enough-1" });
    expect(first.error).toBeNull();
    expect(first.data.session?.user.email_confirmed_at).toEqual(expect.any(String));
    expect(inbox.all()).toEqual([]);
    expect((await supabase().auth.signUp({ email, password: "long-enough-1" })).error).toMatchObject({
      status: 422,
      code: "user_already_exists",
      message: "User already registered",
    });
  });

  test("rate_limit.email_sent applies with a custom SMTP server ([auth.email.smtp]), as the CLI passes it to GoTrue", async () => {
    const { supabase, inbox } = await authServerWith({ rate_limit: { email_sent: 2 }, email: { smtp: { enabled: true } } });
    for (let i = 0; i < 2; i++)
      expect((await supabase().auth.signUp({ email: uniqueEmail("ratelimited"), password: "long-enough-1" })).error).toBeNull();
    const third = await supabase().auth.signUp({ email: uniqueEmail("ratelimited"), password: "long-enough-1" });
    expect(third.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit", message: "email rate limit exceeded" });
    expect(inbox.all()).toHaveLength(2);
  });

  test("rate_limit.email_sent does not limit the local inbox (the CLI sets 360000 an hour without custom SMTP)", async () => {
    const { supabase, inbox } = await authServerWith({ rate_limit: { email_sent: 1 } });
    for (let i = 0; i < 3; i++)
      expect((await supabase().auth.signUp({ email: uniqueEmail("inboxed"), password: "long-enough-1" })).error).toBeNull();
    expect(inbox.all()).toHaveLength(3);
  });

  test("rate_limit.sign_in_sign_ups and token_verifications: not applied per IP, as under supabase start", async () => {
    const { supabase } = await authServerWith({ rate_limit: { sign_in_sign_ups: 2, token_verifications: 1 } });
    for (let i = 0; i < 4; i++)
      expect((await supabase().auth.signInWithPassword({ email: "ada@cuepoint.test", password: "wrong-password" })).error?.code).toBe(
        "invalid_credentials",
      );
    for (let i = 0; i < 3; i++)
      expect((await supabase().auth.verifyOtp({ type: "magiclink", token_hash: "0".repeat(56) })).error?.code).toBe("otp_expired");
  });

  test("with a rate-limit header configured, over_request_rate_limit per value of that header", async () => {
    const { supabase } = await authServerWith({ rate_limit: { sign_in_sign_ups: 2 } }, { STACK_AUTH_RATE_LIMIT_HEADER: "X-Client-Ip" });
    const from = (ip: string) => supabase({ "X-Client-Ip": ip });
    for (let i = 0; i < 2; i++)
      expect((await from("10.0.0.1").auth.signInWithPassword({ email: "ada@cuepoint.test", password: "wrong-password" })).error?.code).toBe(
        "invalid_credentials",
      );
    expect((await from("10.0.0.1").auth.signInWithPassword({ email: "ada@cuepoint.test", password: "cuepoint-demo" })).error).toMatchObject(
      { status: 429, code: "over_request_rate_limit", message: "Request rate limit reached" },
    );
    // Another value, or a request without the header, is not held back.
    expect((await from("10.0.0.2").auth.signInWithPassword({ email: "ada@cuepoint.test", password: "wrong-password" })).error?.code).toBe(
      "invalid_credentials",
    );
    expect((await supabase().auth.signInWithPassword({ email: "ada@cuepoint.test", password: "wrong-password" })).error?.code).toBe(
      "invalid_credentials",
    );
  });

  test("email.max_frequency: a second email of a kind too soon is refused", async () => {
    const { supabase } = await authServerWith({ email: { max_frequency: "60s" } });
    const user = await createConfirmedUser("frequency");
    expect((await supabase().auth.resetPasswordForEmail(user.email)).error).toBeNull();
    expect((await supabase().auth.resetPasswordForEmail(user.email)).error).toMatchObject({
      status: 429,
      code: "over_email_send_rate_limit",
      message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });
  });

  test("enable_anonymous_sign_ins = true: signInAnonymously gives an anonymous user and session", async () => {
    const { supabase } = await authServerWith({ enable_anonymous_sign_ins: true });
    const { data, error } = await supabase().auth.signInAnonymously({ options: { data: { display_name: "Guest" } } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ is_anonymous: true, email: "", user_metadata: { display_name: "Guest" } });
    const claims = JSON.parse(Buffer.from(data.session!.access_token.split(".")[1], "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({
      is_anonymous: true,
      role: "authenticated",
      amr: [{ method: "anonymous", timestamp: expect.any(Number) }],
    });
  });

  test("password_requirements and jwt_expiry; an old password that misses the rules signs in with weak_password", async () => {
    const { supabase } = await authServerWith({ password_requirements: "lower_upper_letters_digits", jwt_expiry: 120 });
    const weak = await supabase().auth.signUp({ email: uniqueEmail("reqs"), password: "alllowercase" });
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password" });
    expect((weak.error as { reasons?: string[] }).reasons).toEqual(["characters"]);
    const user = await createConfirmedUser("expiry");
    const { data } = await supabase().auth.signInWithPassword({ email: user.email, password: user.password });
    expect(data.session?.expires_in).toBe(120);
    expect((data as { weakPassword?: unknown }).weakPassword).toEqual({
      reasons: ["characters"],
      message: expect.stringMatching(/^Password should contain at least one character of each: /),
    });
  });
});

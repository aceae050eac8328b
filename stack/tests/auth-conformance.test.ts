// Supabase Auth as GoTrue answers supabase-js on a `supabase start` project: the gateway's open
// /auth/v1, reauthentication and the password-change nonce, identity linking, SAML, ID-token
// sign-in, phone OTPs with test numbers, admin pagination, and the features the stack leaves off
// answering as GoTrue does with them switched off. Config-dependent behaviour runs on private Auth
// servers (fixture projects) built from config.toml with [auth] changed.
import { describe, expect, test } from "vitest";
import { authServerWith } from "./auth-fixture.ts";
import { admin, authFetch, client, createConfirmedUser, serviceRoleKey, sql, uniqueEmail } from "./auth-helpers.ts";
import { apiUrl } from "./helpers/stack.ts";

const json = (body: unknown): RequestInit => ({ method: "POST", body: JSON.stringify(body) });

/** A signed-in client of `server` for a new confirmed user. */
async function signedIn(server: Awaited<ReturnType<typeof authServerWith>>, label: string) {
  const user = await createConfirmedUser(label);
  const supabase = server.supabase();
  const { data, error } = await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return { ...user, supabase, session: data.session };
}

const sessionIdOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { session_id: string }).session_id;

describe("the gateway lets /auth/v1 through without an apikey, as supabase start's Kong does", () => {
  test("settings, health, sign-up and verify answer; GoTrue itself asks for a bearer where it needs one", async () => {
    for (const path of ["/settings", "/health", "/.well-known/jwks.json"])
      expect((await fetch(`${apiUrl}/auth/v1${path}`)).status).toBe(200);
    const signup = await fetch(`${apiUrl}/auth/v1/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail("nokey"), password: "long-enough-1" }),
    });
    expect(signup.status).toBe(200);
    const user = await fetch(`${apiUrl}/auth/v1/user`, { headers: { "X-Supabase-Api-Version": "2024-01-01" } });
    expect(user.status).toBe(401);
    expect(await user.json()).toEqual({ code: "no_authorization", message: "This endpoint requires a valid Bearer token" });
    // A key Kong does not know is not swapped, and not refused either.
    expect((await fetch(`${apiUrl}/auth/v1/settings`, { headers: { apikey: "not-a-key" } })).status).toBe(200);
    const adminWithoutKey = await fetch(`${apiUrl}/auth/v1/admin/users`, { headers: { "X-Supabase-Api-Version": "2024-01-01" } });
    expect(await adminWithoutKey.json()).toEqual({ code: "no_authorization", message: "This endpoint requires a valid Bearer token" });
  });

  test("other services keep their own checks", async () => {
    expect((await fetch(`${apiUrl}/rest/v1/`)).status).toBe(401);
  });
});

describe("reauthentication (secure_password_change)", () => {
  test("an old session needs a nonce: reauthenticate emails it, a wrong or reused nonce is refused", async () => {
    const server = await authServerWith({ email: { secure_password_change: true } });
    const user = await signedIn(server, "reauth");
    // A session signed in within 24 hours changes the password without a nonce (GoTrue's rule).
    expect((await user.supabase.auth.updateUser({ password: "fresh-session-1" })).error).toBeNull();
    await sql("update auth.sessions set created_at = now() - interval '25 hours' where id = $1", [sessionIdOf(user.session.access_token)]);

    const without = await user.supabase.auth.updateUser({ password: "needs-a-nonce-1" });
    expect(without.error).toMatchObject({
      status: 400,
      code: "reauthentication_needed",
      message: "Password update requires reauthentication",
    });

    const sent = await user.supabase.auth.reauthenticate();
    expect(sent.error).toBeNull();
    const mails = server.inbox.all().filter((m) => m.To.some((to) => to.Address === user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].Subject).toBe("Confirm reauthentication");
    const nonce = /Enter the code: (\d{6})/.exec(mails[0].HTML)?.[1];
    expect(nonce).toMatch(/^\d{6}$/);

    const wrong = await user.supabase.auth.updateUser({ password: "needs-a-nonce-1", nonce: nonce === "000000" ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({ status: 422, code: "reauthentication_not_valid", message: "Nonce has expired or is invalid" });
    expect((await user.supabase.auth.updateUser({ password: "needs-a-nonce-1", nonce })).error).toBeNull();
    expect((await server.supabase().auth.signInWithPassword({ email: user.email, password: "needs-a-nonce-1" })).error).toBeNull();
    const reused = await user.supabase.auth.updateUser({ password: "needs-a-nonce-2", nonce });
    expect(reused.error).toMatchObject({ status: 422, code: "reauthentication_not_valid" });
  });

  test("an expired nonce is refused; without secure_password_change no nonce is asked for", async () => {
    const server = await authServerWith({ email: { secure_password_change: true, otp_expiry: 60 } });
    const user = await signedIn(server, "reauth-expiry");
    await sql("update auth.sessions set created_at = now() - interval '2 days' where id = $1", [sessionIdOf(user.session.access_token)]);
    await user.supabase.auth.reauthenticate();
    const nonce = /Enter the code: (\d{6})/.exec(server.inbox.all().find((m) => m.To[0].Address === user.email)?.HTML ?? "")?.[1];
    await sql("update auth.users set reauthentication_sent_at = now() - interval '2 minutes' where id = $1", [user.id]);
    expect((await user.supabase.auth.updateUser({ password: "too-late-pass-1", nonce })).error).toMatchObject({
      status: 422,
      code: "reauthentication_not_valid",
    });

    const relaxed = await authServerWith({});
    const other = await signedIn(relaxed, "reauth-off");
    await sql("update auth.sessions set created_at = now() - interval '2 days' where id = $1", [sessionIdOf(other.session.access_token)]);
    expect((await other.supabase.auth.updateUser({ password: "no-nonce-needed-1" })).error).toBeNull();
  });

  test("reauthenticate needs a session, a confirmed email, and respects max_frequency", async () => {
    const server = await authServerWith({ email: { max_frequency: "60s" } });
    expect(await server.fetch("/reauthenticate")).toEqual({
      status: 401,
      body: { code: "no_authorization", message: "This endpoint requires a valid Bearer token" },
    });
    const user = await signedIn(server, "reauth-freq");
    expect((await user.supabase.auth.reauthenticate()).error).toBeNull();
    expect((await user.supabase.auth.reauthenticate()).error).toMatchObject({
      status: 429,
      code: "over_email_send_rate_limit",
      message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });
    await sql("update auth.users set email_confirmed_at = null where id = $1", [user.id]);
    expect(await server.fetch("/reauthenticate", { bearer: user.session.access_token })).toEqual({
      status: 422,
      body: { code: "email_not_confirmed", message: "Please verify your email first." },
    });
  });
});

describe("identity linking", () => {
  test("enable_manual_linking = false (config.toml): link and unlink are manual_linking_disabled, after authentication", async () => {
    const user = await createConfirmedUser("nolink");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const link = await supabase.auth.linkIdentity({ provider: "github" });
    expect(link.error).toMatchObject({ status: 404, code: "manual_linking_disabled", message: "Manual linking is disabled" });
    const [identity] = (await supabase.auth.getUserIdentities()).data!.identities;
    expect((await supabase.auth.unlinkIdentity(identity)).error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
    expect(await authFetch(`/user/identities/${identity.identity_id}`, { method: "DELETE", apiVersion: true })).toMatchObject({
      status: 401,
      body: { code: "no_authorization" },
    });
  });

  test("enabled: linking an OAuth provider that is off says so; unlinking keeps at least one identity", async () => {
    const server = await authServerWith({ enable_manual_linking: true });
    const user = await signedIn(server, "linking");
    expect((await user.supabase.auth.linkIdentity({ provider: "github" })).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Unsupported provider: provider is not enabled",
    });
    const only = (await user.supabase.auth.getUserIdentities()).data!.identities;
    expect(only).toHaveLength(1);
    expect((await user.supabase.auth.unlinkIdentity(only[0])).error).toMatchObject({
      status: 422,
      code: "single_identity_not_deletable",
      message: "User must have at least 1 identity after unlinking",
    });

    // A second identity, as an OAuth sign-in would have linked it.
    await sql(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ('gh-4242', $1, jsonb_build_object('sub', 'gh-4242', 'email', $2::text), 'github', now(), now())`,
      [user.id, user.email],
    );
    await sql('update auth.users set raw_app_meta_data = raw_app_meta_data || \'{"providers": ["email", "github"]}\' where id = $1', [
      user.id,
    ]);
    await user.supabase.auth.refreshSession();
    const both = (await user.supabase.auth.getUserIdentities()).data!.identities;
    expect(both.map((i) => i.provider).sort()).toEqual(["email", "github"]);
    const bearer = (await user.supabase.auth.getSession()).data.session!.access_token;
    expect(await server.fetch("/user/identities/not-a-uuid", { method: "DELETE", bearer })).toEqual({
      status: 404,
      body: { code: "validation_failed", message: "identity_id must be an UUID" },
    });
    expect(await server.fetch("/user/identities/7d3f0f5e-0000-4000-8000-000000000000", { method: "DELETE", bearer })).toEqual({
      status: 422,
      body: { code: "identity_not_found", message: "Identity doesn't exist" },
    });

    const github = both.find((i) => i.provider === "github")!;
    expect((await user.supabase.auth.unlinkIdentity(github)).error).toBeNull();
    const { data } = await admin().auth.admin.getUserById(user.id);
    expect(data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
    expect(data.user?.app_metadata.providers).toEqual(["email"]);
    const [entry] = await sql<{ payload: { action: string } }>(
      "select payload from auth.audit_log_entries where payload->>'actor_id' = $1 and payload->>'action' = 'identity_unlinked'",
      [user.id],
    );
    expect(entry.payload.action).toBe("identity_unlinked");
  });
});

describe("SAML and the OAuth 2.1 server answer as GoTrue with them off", () => {
  test("signInWithSSO is saml_provider_disabled, for every /sso path and method", async () => {
    const { error } = await client().auth.signInWithSSO({ domain: "cuepoint.example" });
    expect(error).toMatchObject({ status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled" });
    for (const [method, path] of [
      ["GET", "/sso/saml/metadata"],
      ["POST", "/sso/saml/acs"],
      ["GET", "/sso"],
    ]) {
      expect(await authFetch(path, { method, apiVersion: true })).toMatchObject({
        status: 404,
        body: { code: "saml_provider_disabled", message: "SAML 2.0 is disabled" },
      });
    }
    expect(await authFetch("/sso", { method: "POST", body: "{" })).toMatchObject({
      status: 404,
      body: { code: 404, error_code: "saml_provider_disabled", msg: "SAML 2.0 is disabled" },
    });
  });

  test("the OAuth server's flows and custom providers are feature_disabled (its client registry: auth-oauth-clients.test.ts)", async () => {
    expect(await authFetch("/oauth/clients/register", { ...json({ client_name: "x" }), apiVersion: true })).toMatchObject({
      status: 404,
      body: { code: "feature_disabled", message: "OAuth server is disabled" },
    });
    expect(await authFetch("/.well-known/oauth-authorization-server", { apiVersion: true })).toMatchObject({
      status: 404,
      body: { code: "feature_disabled" },
    });
    expect(await authFetch("/admin/custom-providers", { bearer: serviceRoleKey, apiVersion: true })).toMatchObject({
      status: 404,
      body: { code: "feature_disabled", message: "Custom OAuth providers are disabled" },
    });
    // Admin credentials come first, as GoTrue's /admin middleware checks them before the feature.
    // (The gateway hands GoTrue the anon key's JWT when no Authorization is sent.)
    expect(await authFetch("/admin/oauth/clients", { apiVersion: true })).toMatchObject({
      status: 403,
      body: { code: "not_admin", message: "User not allowed" },
    });
    expect(await authFetch("/user/oauth/grants", { apiVersion: true })).toMatchObject({ status: 401, body: { code: "no_authorization" } });
  });
});

describe("grant_type=id_token", () => {
  const idToken = (payload: Record<string, unknown>) =>
    `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.sig`;

  test.each([
    [{ provider: "google", token: "x" }, "provider_disabled", 'Provider (issuer "https://accounts.google.com") is not enabled'],
    [{ provider: "facebook", token: "x" }, "provider_disabled", 'Provider (issuer "https://www.facebook.com") is not enabled'],
    [
      { provider: "apple", token: idToken({ iss: "https://appleid.apple.com" }) },
      "provider_disabled",
      'Provider (issuer "https://appleid.apple.com") is not enabled',
    ],
    [
      { provider: "apple", token: idToken({ iss: "https://evil.example" }) },
      "validation_failed",
      "Detected ID token issuer is not an Apple ID token issuer",
    ],
    [{ provider: "apple", token: "not-a-jwt" }, "validation_failed", "Unable to detect issuer in ID token for Apple provider"],
    [
      { provider: "azure", token: idToken({ iss: "https://login.microsoftonline.com/tenant/v2.0" }) },
      "provider_disabled",
      'Provider (issuer "https://login.microsoftonline.com/tenant/v2.0") is not enabled',
    ],
    [{ provider: "my-oidc", token: "x" }, "validation_failed", 'Custom OIDC provider "my-oidc" not allowed'],
    [{ provider: "custom:acme", token: "x" }, "validation_failed", "Custom OAuth providers are disabled"],
  ])("signInWithIdToken(%j) → %s", async (credentials, code, message) => {
    const { error } = await client().auth.signInWithIdToken(credentials);
    expect(error).toMatchObject({ status: 400, code, message });
  });

  test("missing parameters are OAuth errors, as GoTrue words them", async () => {
    expect(await authFetch("/token?grant_type=id_token", json({ provider: "google" }))).toEqual(
      expect.objectContaining({ status: 400, body: { error: "invalid request", error_description: "id_token required" } }),
    );
    expect(await authFetch("/token?grant_type=id_token", json({ id_token: "x" }))).toEqual(
      expect.objectContaining({
        status: 400,
        body: { error: "invalid request", error_description: "provider or client_id and issuer required" },
      }),
    );
    expect(await authFetch("/token?grant_type=id_token", json({ id_token: "x", provider: "google", link_identity: true }))).toEqual(
      expect.objectContaining({
        status: 400,
        body: { error: "invalid request", error_description: "Linking requires a valid user access token in Authorization" },
      }),
    );
    expect(await authFetch("/token?grant_type=id_token", json({ id_token: 5, provider: "google" }))).toMatchObject({
      status: 400,
      body: { error_code: "bad_json" },
    });
  });
});

describe("phone sign-in with [auth.sms.test_otp]", () => {
  const testNumber = "15555550142";
  const sms = (extra: Record<string, unknown> = {}) => ({
    sms: { enabled: true, test_otp: { [testNumber]: "424242", "15555550143": "434343" }, ...extra },
  });

  test("with the phone provider off (config.toml), signInWithOtp({phone}) is phone_provider_disabled", async () => {
    const { error } = await client().auth.signInWithOtp({ phone: `+${testNumber}` });
    expect(error).toMatchObject({ status: 400, code: "phone_provider_disabled", message: "Unsupported phone provider" });
  });

  test("on: a test number signs up, gets its fixed code (message_id test-otp) and verifies with it", async () => {
    const server = await authServerWith(sms());
    await sql("delete from auth.users where phone = $1", [testNumber]);
    const sent = await server.supabase().auth.signInWithOtp({ phone: `+${testNumber}` });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ user: null, session: null, messageId: "test-otp" });
    expect((await server.supabase().auth.verifyOtp({ phone: `+${testNumber}`, token: "000000", type: "sms" })).error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Token has expired or is invalid",
    });
    const supabase = server.supabase();
    const { data, error } = await supabase.auth.verifyOtp({ phone: `+${testNumber}`, token: "424242", type: "sms" });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ phone: testNumber, phone_confirmed_at: expect.any(String), email: "" });
    expect(data.user?.identities?.map((i) => i.provider)).toEqual(["phone"]);
    // A test OTP verifies its number again, without a new code being sent.
    expect((await server.supabase().auth.verifyOtp({ phone: testNumber, token: "424242", type: "sms" })).error).toBeNull();
  });

  test("bad numbers and numbers without a test OTP; a test number nobody has is not verified", async () => {
    const server = await authServerWith(sms({ max_frequency: "0s" }));
    expect((await server.supabase().auth.signInWithOtp({ phone: "0123" })).error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Invalid phone number format (E.164 required)",
    });
    expect((await server.supabase().auth.signInWithOtp({ phone: "+1555abc" })).error).toMatchObject({
      status: 400,
      code: "validation_failed",
    });
    expect(await server.fetch("/otp", json({ phone: "+15555550199" }))).toEqual({
      status: 500,
      body: { code: "unexpected_failure", message: "Unable to get SMS provider" },
    });
    await sql("delete from auth.users where phone = '15555550143'");
    expect((await server.supabase().auth.verifyOtp({ phone: "+15555550143", token: "434343", type: "sms" })).error).toMatchObject({
      status: 403,
      code: "otp_expired",
    });
    expect(
      (await server.supabase().auth.signInWithOtp({ phone: "+15555550143", options: { shouldCreateUser: false } })).error,
    ).toMatchObject({ status: 422, code: "otp_disabled", message: "Signups not allowed for otp" });
    expect(await server.fetch("/verify", json({ type: "sms", phone: "+15555550143", email: "x@y.test", token: "434343" }))).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "Only an email address or phone number should be provided on verify" },
    });
  });

  test("signUp and signInWithPassword by phone: off is phone_provider_disabled; on, autoconfirmed or by code", async () => {
    expect((await client().auth.signUp({ phone: "+15555550160", password: "long-enough-1" })).error).toMatchObject({
      status: 400,
      code: "phone_provider_disabled",
      message: "Phone signups are disabled",
    });
    expect((await client().auth.signInWithPassword({ phone: "+15555550160", password: "long-enough-1" })).error).toMatchObject({
      status: 400,
      code: "phone_provider_disabled",
      message: "Phone logins are disabled",
    });

    await sql("delete from auth.users where phone in ('15555550160', $1)", [testNumber]);
    const auto = await authServerWith(sms());
    const signedUp = await auto.supabase().auth.signUp({ phone: "+15555550160", password: "long-enough-1" });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session?.user).toMatchObject({ phone: "15555550160", phone_confirmed_at: expect.any(String) });
    expect((await auto.supabase().auth.signUp({ phone: "+15555550160", password: "long-enough-1" })).error).toMatchObject({
      status: 422,
      code: "user_already_exists",
    });
    expect((await auto.supabase().auth.signInWithPassword({ phone: "+15555550160", password: "long-enough-1" })).error).toBeNull();
    expect((await auto.supabase().auth.signInWithPassword({ phone: "+15555550160", password: "wrong-password" })).error).toMatchObject({
      status: 400,
      code: "invalid_credentials",
    });

    const confirming = await authServerWith(sms({ enable_confirmations: true }));
    const pending = await confirming.supabase().auth.signUp({ phone: `+${testNumber}`, password: "long-enough-1" });
    expect(pending.error).toBeNull();
    expect(pending.data.session).toBeNull();
    expect(pending.data.user).toMatchObject({ phone: testNumber });
    expect(
      (await confirming.supabase().auth.signInWithPassword({ phone: `+${testNumber}`, password: "long-enough-1" })).error,
    ).toMatchObject({ status: 400, code: "phone_not_confirmed", message: "Phone not confirmed" });
    expect((await confirming.supabase().auth.verifyOtp({ phone: `+${testNumber}`, token: "424242", type: "sms" })).error).toBeNull();
    expect((await confirming.supabase().auth.signInWithPassword({ phone: `+${testNumber}`, password: "long-enough-1" })).error).toBeNull();
    await sql("delete from auth.users where phone in ('15555550160', $1)", [testNumber]);
  });

  test("phone_change with SMS confirmations on: the code goes to the new number, verifyOtp moves it onto the user", async () => {
    const server = await authServerWith(sms({ enable_confirmations: true }));
    await sql("update auth.users set phone = null where phone = '15555550143'");
    const user = await signedIn(server, "phonechange");
    const asked = await user.supabase.auth.updateUser({ phone: "+15555550143" });
    expect(asked.error).toBeNull();
    expect(asked.data.user?.phone).toBe("");
    expect((await user.supabase.auth.verifyOtp({ phone: "+15555550143", token: "000000", type: "phone_change" })).error).toMatchObject({
      status: 403,
      code: "otp_expired",
    });
    const { data, error } = await user.supabase.auth.verifyOtp({ phone: "+15555550143", token: "434343", type: "phone_change" });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id: user.id, email: user.email, phone: "15555550143", phone_confirmed_at: expect.any(String) });
    expect(data.user?.identities?.map((i) => i.provider).sort()).toEqual(["email", "phone"]);
    // A number someone else has is phone_exists; another code too soon (sms max_frequency 5s) is refused.
    await sql("update auth.users set phone = $1 where id = (select id from auth.users where phone is null and id <> $2 limit 1)", [
      "15555550177",
      user.id,
    ]);
    expect((await user.supabase.auth.updateUser({ phone: "+15555550177" })).error).toMatchObject({
      status: 422,
      code: "phone_exists",
      message: "A user with this phone number has already been registered",
    });
    await sql("update auth.users set phone_change_sent_at = now() where id = $1", [user.id]);
    expect((await user.supabase.auth.updateUser({ phone: "+15555550188" })).error).toMatchObject({
      status: 429,
      code: "over_sms_send_rate_limit",
      message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });
    await sql("update auth.users set phone = null where phone = '15555550177'");
  });
});

describe("admin API pagination", () => {
  test.each([
    ["page=abc", 'Bad Pagination Parameters: strconv.ParseUint: parsing "abc": invalid syntax'],
    ["page=-1", 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax'],
    ["per_page=1.5", 'Bad Pagination Parameters: strconv.ParseUint: parsing "1.5": invalid syntax'],
    ["page=99999999999999999999", 'Bad Pagination Parameters: strconv.ParseUint: parsing "99999999999999999999": value out of range'],
  ])("?%s is 400: %s", async (query, message) => {
    expect(await authFetch(`/admin/users?${query}`, { bearer: serviceRoleKey, apiVersion: true })).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message },
    });
  });

  test("valid pages list users", async () => {
    const { data, error } = await admin().auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(1);
  });
});

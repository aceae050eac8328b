// Auth conformance: the flows Cuepoint uses, driven by the real supabase-js and @supabase/ssr.
import { createServerClient } from "@supabase/ssr";
import type { AuthChangeEvent } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { config } from "./helpers/stack.ts";
import {
  admin,
  anonKey,
  apiUrl,
  authFetch,
  client,
  createConfirmedUser,
  decodeJwt,
  firstLink,
  latestMail,
  mailsTo,
  sql,
  uniqueEmail,
} from "./auth-helpers.ts";

const site = "http://localhost:3000";
// The redirect the app passes (lib/auth/links.ts emailRedirect): the destination on the site.
const confirmRedirect = (next: string) => `${site}${next}`;
const issuer = `http://127.0.0.1:${config.apiPort}/auth/v1`;

describe("sign-up → confirmation email → verify → session", () => {
  test("signUp answers the user without a session, emails the template's link, and verifyOtp signs in", async () => {
    const email = uniqueEmail("signup");
    const supabase = client({ flowType: "pkce" });
    const { data, error } = await supabase.auth.signUp({
      email,
      password: "listening-club-42",
      options: { emailRedirectTo: confirmRedirect("/"), data: { display_name: "Signup Person" } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: "authenticated",
      role: "authenticated",
      user_metadata: { display_name: "Signup Person" },
      app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toEqual(expect.any(String));
    expect(data.user?.identities).toHaveLength(1);

    // The project's trigger made a profile from the auth.users row.
    const profiles = await sql<{ display_name: string }>("select display_name from public.profiles where id = $1", [data.user!.id]);
    expect(profiles).toEqual([{ display_name: "Signup Person" }]);

    const notYet = await client().auth.signInWithPassword({ email, password: "listening-club-42" });
    expect(notYet.error).toMatchObject({ status: 400, code: "email_not_confirmed", message: "Email not confirmed" });

    const mail = await latestMail(email, /Confirm your Cuepoint account/);
    expect(mail.From).toEqual({ Name: "Admin", Address: "admin@email.com" });
    const link = firstLink(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${site}/auth/confirm`);
    expect(link.searchParams.get("next")).toBe(confirmRedirect("/"));
    expect(link.searchParams.get("type")).toBe("signup");
    const tokenHash = link.searchParams.get("token_hash")!;
    expect(tokenHash).toMatch(/^pkce_[0-9a-f]{56}$/);

    const verified = await client().auth.verifyOtp({ type: "signup", token_hash: tokenHash });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const again = await client().auth.verifyOtp({ type: "signup", token_hash: tokenHash });
    expect(again.error).toMatchObject({ status: 403, code: "otp_expired", message: "Email link is invalid or has expired" });

    const signedIn = await client().auth.signInWithPassword({ email, password: "listening-club-42" });
    expect(signedIn.error).toBeNull();
  });

  test("signing up again with a confirmed address answers a look-alike user and sends nothing", async () => {
    const user = await createConfirmedUser("twice");
    const { data, error } = await client().auth.signUp({ email: user.email, password: "another-password-1" });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.id).not.toBe(user.id);
    expect(data.user?.identities).toEqual([]);
    expect(await mailsTo(user.email)).toEqual([]);
  });

  test("signing up again while unconfirmed re-sends the confirmation; resend does too", async () => {
    const email = uniqueEmail("resend");
    await client().auth.signUp({ email, password: "listening-club-42" });
    await client().auth.signUp({ email, password: "listening-club-42" });
    const { error } = await client().auth.resend({ type: "signup", email, options: { emailRedirectTo: confirmRedirect("/rooms") } });
    expect(error).toBeNull();
    const mail = await latestMail(email, /Confirm your Cuepoint account/, 3);
    expect(firstLink(mail).searchParams.get("next")).toBe(confirmRedirect("/rooms"));
    expect(await mailsTo(email)).toHaveLength(3);
  });

  test("a redirect outside the allow-list falls back to site_url; GoTrue's {{ .ConfirmationURL }} goes through /verify", async () => {
    const email = uniqueEmail("redirect");
    await client().auth.signUp({ email, password: "listening-club-42", options: { emailRedirectTo: "https://evil.example/steal" } });
    const mail = await latestMail(email);
    expect(mail.HTML).toContain(`href="${site}/auth/confirm?token_hash=`);
    expect(firstLink(mail).searchParams.get("next")).toBe(site);
    const { data } = await admin().auth.admin.generateLink({ type: "magiclink", email, options: { redirectTo: confirmRedirect("/u/me") } });
    expect(data.properties?.action_link).toBe(
      `${issuer}/verify?token=${data.properties?.hashed_token}&type=magiclink&redirect_to=${encodeURIComponent(confirmRedirect("/u/me"))}`,
    );
  });
});

describe("password sign-in and the session", () => {
  test("a session with Supabase's shape and claims", async () => {
    const user = await createConfirmedUser("claims");
    const { data, error } = await client().auth.signInWithPassword({ email: user.email, password: user.password });
    expect(error).toBeNull();
    const session = data.session!;
    expect(session).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(session.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(session.expires_at! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: issuer,
      sub: user.id,
      aud: "authenticated",
      email: user.email,
      phone: "",
      role: "authenticated",
      aal: "aal1",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: {},
      is_anonymous: false,
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);
    const sessions = await sql<{ user_id: string }>("select user_id from auth.sessions where id = $1", [claims.session_id]);
    expect(sessions).toEqual([{ user_id: user.id }]);
    expect(session.user.last_sign_in_at).toEqual(expect.any(String));
    const audit = await sql<{ action: string; log_type: string; provider: string }>(
      "select payload->>'action' as action, payload->>'log_type' as log_type, payload->'traits'->>'provider' as provider from auth.audit_log_entries where payload->>'actor_id' = $1 and payload->>'action' = 'login'",
      [user.id],
    );
    expect(audit).toEqual([{ action: "login", log_type: "account", provider: "email" }]);
  });

  test("wrong password, unknown address: invalid_credentials", async () => {
    const user = await createConfirmedUser("wrongpw");
    const wrong = await client().auth.signInWithPassword({ email: user.email, password: "not-the-password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
    const unknown = await client().auth.signInWithPassword({ email: uniqueEmail("nobody"), password: "whatever-123" });
    expect(unknown.error).toMatchObject({ status: 400, code: "invalid_credentials" });
  });

  test("the seeded demo accounts (pgcrypto bcrypt hashes) sign in", async () => {
    const { error } = await client().auth.signInWithPassword({ email: "ada@cuepoint.test", password: "cuepoint-demo" });
    expect(error).toBeNull();
  });

  test("getUser and getClaims verify the token with the server", async () => {
    const user = await createConfirmedUser("getuser");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data, error } = await supabase.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id: user.id, email: user.email, role: "authenticated" });
    const claims = await supabase.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.sub).toBe(user.id);
  });
});

describe("refresh-token rotation and reuse detection", () => {
  test("refresh rotates; a lost answer is recovered; reusing an older token revokes the family", async () => {
    const user = await createConfirmedUser("refresh");
    const supabase = client();
    const first = (await supabase.auth.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token).session_id).toBe(decodeJwt(first.access_token).session_id);
    const rows = await sql<{ revoked: boolean; parent: string | null }>(
      "select revoked, parent from auth.refresh_tokens where token = any($1) order by id",
      [[first.refresh_token, second.refresh_token]],
    );
    expect(rows).toEqual([
      { revoked: true, parent: null },
      { revoked: false, parent: first.refresh_token },
    ]);

    // The parent of the active token (a client that never stored the refresh answer) gets that
    // active token back, however late.
    await sql("update auth.refresh_tokens set updated_at = now() - interval '1 hour' where token = $1", [first.refresh_token]);
    const lost = await client().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(lost.error).toBeNull();
    expect(lost.data.session?.refresh_token).toBe(second.refresh_token);

    // Rotate again; now the first token is two generations old. Past refresh_token_reuse_interval,
    // presenting it is reuse: refused, and every token of the session revoked.
    const third = (await supabase.auth.refreshSession()).data.session!;
    expect(third.refresh_token).not.toBe(second.refresh_token);
    const reused = await client().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reused.error).toMatchObject({ status: 400, code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used" });
    const family = await sql<{ revoked: boolean }>("select revoked from auth.refresh_tokens where session_id = $1", [
      decodeJwt(first.access_token).session_id,
    ]);
    expect(family.every((row) => row.revoked)).toBe(true);
    await sql("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1", [third.refresh_token]);
    expect((await client().auth.refreshSession({ refresh_token: third.refresh_token })).error).toMatchObject({
      status: 400,
      code: "refresh_token_already_used",
    });
  });

  test("within refresh_token_reuse_interval a revoked token is still honoured (concurrent refreshes)", async () => {
    const user = await createConfirmedUser("reuse-window");
    const supabase = client();
    const first = (await supabase.auth.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    await supabase.auth.refreshSession();
    await supabase.auth.refreshSession();
    const again = await client().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(again.error).toBeNull();
    expect(again.data.session?.refresh_token).toMatch(/^[a-z0-9]{12}$/);
  });

  test("an unknown refresh token: refresh_token_not_found", async () => {
    const { error } = await client().auth.refreshSession({ refresh_token: "nosuchtoken1" });
    expect(error).toMatchObject({
      status: 400,
      code: "refresh_token_not_found",
      message: "Invalid Refresh Token: Refresh Token Not Found",
    });
  });
});

describe("PKCE: magic link and recovery through the inbox", () => {
  test("magic link: email → GET /verify redirects with ?code= → exchangeCodeForSession in the asking client", async () => {
    const user = await createConfirmedUser("magic");
    const supabase = client({ flowType: "pkce" });
    const { error } = await supabase.auth.signInWithOtp({
      email: user.email,
      options: { emailRedirectTo: confirmRedirect("/account"), shouldCreateUser: false },
    });
    expect(error).toBeNull();
    const mail = await latestMail(user.email, /Your Cuepoint sign-in link/);
    const link = firstLink(mail);
    expect(link.searchParams.get("type")).toBe("magiclink");
    const tokenHash = link.searchParams.get("token_hash")!;
    expect(tokenHash.startsWith("pkce_")).toBe(true);

    const verify = await fetch(
      `${apiUrl}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(`${site}/auth/callback?next=/account`)}`,
      { redirect: "manual" },
    );
    expect(verify.status).toBe(303);
    const location = new URL(verify.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${site}/auth/callback`);
    expect(location.searchParams.get("next")).toBe("/account");
    const code = location.searchParams.get("code")!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const otherBrowser = await client({ flowType: "pkce" }).auth.exchangeCodeForSession(code);
    expect(otherBrowser.error?.name).toBe("AuthPKCECodeVerifierMissingError");

    const exchanged = await supabase.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.id).toBe(user.id);
    expect(decodeJwt(exchanged.data.session!.access_token).amr).toEqual([{ method: "magiclink", timestamp: expect.any(Number) }]);

    const replay = await fetch(
      `${apiUrl}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(`${site}/auth/callback?next=/account`)}`,
      { redirect: "manual" },
    );
    const failed = new URL(replay.headers.get("location")!);
    // PKCE links carry the error in the query (merged with the target's) and in the fragment.
    expect(failed.searchParams.get("next")).toBe("/account");
    expect(new URLSearchParams(failed.hash.slice(1)).has("sb")).toBe(true);
    expect(new URLSearchParams(failed.hash.slice(1)).get("error_code")).toBe("otp_expired");
    expect(failed.searchParams.get("error_code")).toBe("otp_expired");
    expect(failed.searchParams.get("error")).toBe("access_denied");
    expect(failed.searchParams.get("error_description")).toBe("Email link is invalid or has expired");
  });

  test("a wrong code verifier or a used code: bad_code_verifier, flow_state_not_found", async () => {
    const user = await createConfirmedUser("verifier");
    const supabase = client({ flowType: "pkce" });
    await supabase.auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: confirmRedirect("/") } });
    const tokenHash = firstLink(await latestMail(user.email)).searchParams.get("token_hash")!;
    const verify = await fetch(
      `${apiUrl}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(`${site}/auth/callback`)}`,
      { redirect: "manual" },
    );
    const code = new URL(verify.headers.get("location")!).searchParams.get("code")!;
    const bad = await authFetch("/token?grant_type=pkce", {
      method: "POST",
      apiVersion: true,
      body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(43) }),
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { code: "bad_code_verifier", message: "code challenge does not match previously saved code verifier" },
    });
    expect((await supabase.auth.exchangeCodeForSession(code)).error).toBeNull();
    const used = await authFetch("/token?grant_type=pkce", {
      method: "POST",
      apiVersion: true,
      body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(43) }),
    });
    expect(used).toMatchObject({ status: 404, body: { code: "flow_state_not_found" } });
  });

  test("expiry: an old email link is otp_expired; an old auth code is flow_state_expired", async () => {
    const user = await createConfirmedUser("expiry");
    const supabase = client({ flowType: "pkce" });
    await supabase.auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: confirmRedirect("/") } });
    const tokenHash = firstLink(await latestMail(user.email)).searchParams.get("token_hash")!;
    // otp_expiry is 3600 s in config.toml: a link sent two hours ago no longer works.
    await sql("update auth.users set recovery_sent_at = now() - interval '2 hours' where id = $1", [user.id]);
    expect((await client().auth.verifyOtp({ type: "magiclink", token_hash: tokenHash })).error).toMatchObject({
      status: 403,
      code: "otp_expired",
    });

    await supabase.auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: confirmRedirect("/") } });
    const fresh = firstLink(await latestMail(user.email, undefined, 2)).searchParams.get("token_hash")!;
    const verify = await fetch(
      `${apiUrl}/auth/v1/verify?token=${fresh}&type=magiclink&redirect_to=${encodeURIComponent(`${site}/auth/callback`)}`,
      { redirect: "manual" },
    );
    const code = new URL(verify.headers.get("location")!).searchParams.get("code")!;
    // A flow state lives five minutes.
    await sql("update auth.flow_state set auth_code_issued_at = now() - interval '10 minutes' where auth_code = $1", [code]);
    expect((await supabase.auth.exchangeCodeForSession(code)).error).toMatchObject({ status: 422, code: "flow_state_expired" });
  });

  test("recovery: the code exchange fires PASSWORD_RECOVERY; the new password works and the old does not", async () => {
    const user = await createConfirmedUser("recover");
    const supabase = client({ flowType: "pkce" });
    const events: AuthChangeEvent[] = [];
    supabase.auth.onAuthStateChange((event) => void events.push(event));
    const { error } = await supabase.auth.resetPasswordForEmail(user.email, { redirectTo: confirmRedirect("/account/password") });
    expect(error).toBeNull();
    const mail = await latestMail(user.email, /Reset your Cuepoint password/);
    const tokenHash = firstLink(mail).searchParams.get("token_hash")!;
    const verify = await fetch(
      `${apiUrl}/auth/v1/verify?token=${tokenHash}&type=recovery&redirect_to=${encodeURIComponent(`${site}/auth/callback`)}`,
      { redirect: "manual" },
    );
    const code = new URL(verify.headers.get("location")!).searchParams.get("code")!;
    const exchanged = await supabase.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect((exchanged.data as { redirectType?: string | null }).redirectType).toBe("recovery");
    // supabase-js notifies its listeners asynchronously: wait for the event, not a fixed 20 ms
    await expect.poll(() => events, { timeout: 30_000 }).toContain("PASSWORD_RECOVERY");

    expect((await supabase.auth.updateUser({ password: "brand-new-password-7" })).error).toBeNull();
    const old = await client().auth.signInWithPassword({ email: user.email, password: user.password });
    expect(old.error?.code).toBe("invalid_credentials");
    expect((await client().auth.signInWithPassword({ email: user.email, password: "brand-new-password-7" })).error).toBeNull();
  });

  test("recovery by token_hash (the app's /auth/confirm): verifyOtp fires PASSWORD_RECOVERY", async () => {
    const user = await createConfirmedUser("recover-hash");
    await client({ flowType: "pkce" }).auth.resetPasswordForEmail(user.email, { redirectTo: confirmRedirect("/account/password") });
    const tokenHash = firstLink(await latestMail(user.email)).searchParams.get("token_hash")!;
    const server = client();
    const events: AuthChangeEvent[] = [];
    server.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await server.auth.verifyOtp({ type: "recovery", token_hash: tokenHash });
    expect(error).toBeNull();
    expect(data.session?.user.id).toBe(user.id);
    // supabase-js notifies its listeners asynchronously: wait for the event, not a fixed 20 ms
    await expect.poll(() => events, { timeout: 30_000 }).toContain("PASSWORD_RECOVERY");
  });

  test("a magic link to a new address signs it up (confirmation email); shouldCreateUser false refuses", async () => {
    const email = uniqueEmail("otp-new");
    expect((await client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toMatchObject({
      status: 422,
      code: "otp_disabled",
    });
    expect((await client().auth.signInWithOtp({ email, options: { emailRedirectTo: confirmRedirect("/") } })).error).toBeNull();
    const mail = await latestMail(email, /Confirm your Cuepoint account/);
    const { data, error } = await client().auth.verifyOtp({ type: "signup", token_hash: firstLink(mail).searchParams.get("token_hash")! });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  test("the six-digit OTP from the email verifies with the address", async () => {
    const user = await createConfirmedUser("otp-code");
    const { data } = await admin().auth.admin.generateLink({ type: "magiclink", email: user.email });
    const otp = data.properties!.email_otp;
    expect(otp).toMatch(/^\d{6}$/);
    const verified = await client().auth.verifyOtp({ type: "email", email: user.email, token: otp });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.id).toBe(user.id);
  });
});

describe("updating the user", () => {
  test("user_metadata merges; same or weak passwords are refused", async () => {
    const user = await createConfirmedUser("update");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    await supabase.auth.updateUser({ data: { theme: "dark", volume: 3 } });
    const { data, error } = await supabase.auth.updateUser({ data: { volume: 7, theme: null } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ volume: 7 });
    const same = await supabase.auth.updateUser({ password: user.password });
    expect(same.error).toMatchObject({
      status: 422,
      code: "same_password",
      message: "New password should be different from the old password.",
    });
    const appMetadata = await authFetch("/user", {
      method: "PUT",
      bearer: (await supabase.auth.getSession()).data.session!.access_token,
      apiVersion: true,
      body: JSON.stringify({ app_metadata: { role: "admin" } }),
    });
    expect(appMetadata).toMatchObject({
      status: 403,
      body: { code: "not_admin", message: "Updating app_metadata requires admin privileges" },
    });
    const weak = await supabase.auth.updateUser({ password: "short" });
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password", message: "Password should be at least 8 characters." });
    expect((weak.error as { reasons?: string[] }).reasons).toEqual(["length"]);
  });

  test("a password change signs out the user's other sessions", async () => {
    const user = await createConfirmedUser("pw-others");
    const here = client();
    const there = client();
    await here.auth.signInWithPassword({ email: user.email, password: user.password });
    await there.auth.signInWithPassword({ email: user.email, password: user.password });
    expect((await here.auth.updateUser({ password: "a-whole-new-one-9" })).error).toBeNull();
    const thereToken = (await there.auth.getSession()).data.session!.access_token;
    const raw = await authFetch("/user", { bearer: thereToken, apiVersion: true });
    expect(raw).toMatchObject({
      status: 403,
      body: { code: "session_not_found", message: "Session from session_id claim in JWT does not exist" },
    });
    // auth-js turns session_not_found into AuthSessionMissingError and forgets the session.
    expect((await there.auth.getUser()).error?.name).toBe("AuthSessionMissingError");
    expect((await here.auth.getUser()).error).toBeNull();
  });

  test("email change with double confirmation: both addresses get a link; both must be followed", async () => {
    const user = await createConfirmedUser("change");
    const newEmail = uniqueEmail("changed");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data, error } = await supabase.auth.updateUser({ email: newEmail }, { emailRedirectTo: confirmRedirect("/account") });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: user.email, new_email: newEmail });
    // resend({type: 'email_change'}) names the current address and sends both links again.
    expect(
      (await client().auth.resend({ type: "email_change", email: user.email, options: { emailRedirectTo: confirmRedirect("/account") } }))
        .error,
    ).toBeNull();
    const toNew = await latestMail(newEmail, /Confirm your new Cuepoint email address/, 2);
    const toOld = await latestMail(user.email, /Confirm your new Cuepoint email address/, 2);
    expect(toNew.Text).toContain(`from ${user.email} to ${newEmail}`);
    const first = await client().auth.verifyOtp({ type: "email_change", token_hash: firstLink(toOld).searchParams.get("token_hash")! });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull();
    const second = await client().auth.verifyOtp({ type: "email_change", token_hash: firstLink(toNew).searchParams.get("token_hash")! });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
    expect((await client().auth.signInWithPassword({ email: newEmail, password: user.password })).error).toBeNull();
  });

  test("changing to an address another account has: email_exists", async () => {
    const user = await createConfirmedUser("taken-a");
    const other = await createConfirmedUser("taken-b");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    expect((await supabase.auth.updateUser({ email: other.email })).error).toMatchObject({ status: 422, code: "email_exists" });
  });
});

describe("logout scopes", () => {
  async function threeSessions() {
    const user = await createConfirmedUser("logout");
    const clients = [client(), client(), client()];
    for (const c of clients) await c.auth.signInWithPassword({ email: user.email, password: user.password });
    return clients;
  }
  // A fresh client per check: auth-js drops its own session when getUser answers session_not_found.
  const alive = async (_c: unknown, token: string) => !(await client().auth.getUser(token)).error;

  test("others, local, global", async () => {
    const [a, b, c] = await threeSessions();
    const tokens = await Promise.all([a, b, c].map(async (x) => (await x.auth.getSession()).data.session!.access_token));
    expect((await a.auth.signOut({ scope: "others" })).error).toBeNull();
    expect(await alive(a, tokens[0])).toBe(true);
    expect(await alive(a, tokens[1])).toBe(false);
    expect(await alive(a, tokens[2])).toBe(false);
    expect((await a.auth.signOut({ scope: "local" })).error).toBeNull();
    expect(await alive(b, tokens[0])).toBe(false);
    expect((await a.auth.getSession()).data.session).toBeNull();

    const [d, e] = await threeSessions();
    const dToken = (await d.auth.getSession()).data.session!.access_token;
    const eRefresh = (await e.auth.getSession()).data.session!.refresh_token;
    expect((await d.auth.signOut()).error).toBeNull();
    expect(await alive(e, dToken)).toBe(false);
    expect((await client().auth.refreshSession({ refresh_token: eRefresh })).error?.code).toBe("refresh_token_not_found");
  });

  test("POST /logout answers 204; an unknown scope is a validation error", async () => {
    const user = await createConfirmedUser("logout-raw");
    const token = (await client().auth.signInWithPassword({ email: user.email, password: user.password })).data.session!.access_token;
    const bad = await authFetch("/logout?scope=everything", { method: "POST", bearer: token, apiVersion: true });
    expect(bad).toMatchObject({ status: 400, body: { code: "validation_failed", message: 'Unsupported logout scope "everything"' } });
    const done = await authFetch("/logout?scope=local", { method: "POST", bearer: token });
    expect(done.status).toBe(204);
    expect(done.body).toBe("");
  });
});

describe("@supabase/ssr server client (cookies)", () => {
  test("PKCE sign-in link and session in cookies, as the app's route handlers use them", async () => {
    const user = await createConfirmedUser("ssr");
    const jar = new Map<string, string>();
    const ssr = () =>
      createServerClient(apiUrl, anonKey, {
        auth: { flowType: "pkce" },
        cookies: {
          getAll: () => [...jar].map(([name, value]) => ({ name, value })),
          setAll: (cookies) => {
            for (const { name, value } of cookies) {
              if (value) jar.set(name, value);
              else jar.delete(name);
            }
          },
        },
      });
    expect(
      (await ssr().auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: `${site}/auth/callback?next=/account` } })).error,
    ).toBeNull();
    expect([...jar.keys()].some((name) => name.endsWith("-code-verifier"))).toBe(true);
    const tokenHash = firstLink(await latestMail(user.email)).searchParams.get("token_hash")!;
    const verify = await fetch(
      `${apiUrl}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(`${site}/auth/callback?next=/account`)}`,
      { redirect: "manual" },
    );
    const code = new URL(verify.headers.get("location")!).searchParams.get("code")!;
    const { error } = await ssr().auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    const { data } = await ssr().auth.getUser();
    expect(data.user?.id).toBe(user.id);
    const claims = await ssr().auth.getClaims();
    expect(claims.data?.claims.email).toBe(user.email);
  });
});

describe("admin API (service role)", () => {
  test("create with email_confirm, get, list with pagination, update, ban, delete", async () => {
    const api = admin().auth.admin;
    const email = uniqueEmail("admin");
    const created = await api.createUser({
      email,
      password: "admin-made-pass-1",
      email_confirm: true,
      user_metadata: { display_name: "Made By Admin" },
      app_metadata: { plan: "pro" },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user).toMatchObject({
      email,
      email_confirmed_at: expect.any(String),
      user_metadata: { display_name: "Made By Admin" },
      app_metadata: { plan: "pro", provider: "email", providers: ["email"] },
    });
    expect((await client().auth.signInWithPassword({ email, password: "admin-made-pass-1" })).error).toBeNull();

    expect((await api.getUserById(id)).data.user?.email).toBe(email);
    const page = await api.listUsers({ page: 1, perPage: 1 });
    expect(page.error).toBeNull();
    expect(page.data.users).toHaveLength(1);
    expect((page.data as { total: number }).total).toBeGreaterThan(1);
    expect((page.data as { nextPage: number | null }).nextPage).toBe(2);

    const updated = await api.updateUserById(id, { user_metadata: { bio: "hello" }, ban_duration: "24h" });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({ display_name: "Made By Admin", bio: "hello" });
    expect(updated.data.user?.banned_until).toEqual(expect.any(String));
    expect((await client().auth.signInWithPassword({ email, password: "admin-made-pass-1" })).error).toMatchObject({
      status: 400,
      code: "user_banned",
    });

    expect((await api.createUser({ email, password: "whatever-123" })).error).toMatchObject({ status: 422, code: "email_exists" });
    expect((await api.deleteUser(id)).error).toBeNull();
    expect((await api.getUserById(id)).error).toMatchObject({ status: 404, code: "user_not_found" });
    expect(await sql("select 1 from public.profiles where id = $1", [id])).toEqual([]);
  });

  test("concurrent creation of one address: one user, the others hear email_exists", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all(
      Array.from({ length: 6 }, () => admin().auth.admin.createUser({ email, password: "race-password-1", email_confirm: true })),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    for (const r of results.filter((r) => r.error)) expect(r.error).toMatchObject({ status: 422, code: "email_exists" });
  });

  test("generate_link answers the link properties without sending an email", async () => {
    const email = uniqueEmail("genlink");
    const { data, error } = await admin().auth.admin.generateLink({
      type: "signup",
      email,
      password: "generated-pass-1",
      options: { redirectTo: confirmRedirect("/") },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.properties).toMatchObject({
      verification_type: "signup",
      redirect_to: confirmRedirect("/"),
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
    });
    expect(await mailsTo(email)).toEqual([]);
    const location = await fetch(data.properties!.action_link, { redirect: "manual" });
    expect(location.status).toBe(303);
    const fragment = new URLSearchParams(new URL(location.headers.get("location")!).hash.slice(1));
    expect(fragment.get("type")).toBe("signup");
    expect(decodeJwt(fragment.get("access_token")!).email).toBe(email);
    const recovery = await admin().auth.admin.generateLink({ type: "recovery", email: uniqueEmail("nobody") });
    expect(recovery.error).toMatchObject({ status: 404, code: "user_not_found" });
    // A magic link for an unknown address is a sign-up link.
    const newcomer = uniqueEmail("newcomer");
    const magic = await admin().auth.admin.generateLink({ type: "magiclink", email: newcomer });
    expect(magic.error).toBeNull();
    expect(magic.data.properties?.verification_type).toBe("signup");
    expect(magic.data.user?.email).toBe(newcomer);
  });

  test("inviteUserByEmail: the invite template, and the link signs the invitee in", async () => {
    const email = uniqueEmail("invitee");
    const { data, error } = await admin().auth.admin.inviteUserByEmail(email, {
      data: { display_name: "Invited" },
      redirectTo: `${site}/auth/callback`,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, invited_at: expect.any(String), user_metadata: { display_name: "Invited" } });
    // The project's invite template: a token-hash link to the app's /auth/confirm, the redirect as `next`.
    const link = firstLink(await latestMail(email, /You're invited to Cuepoint/));
    expect(`${link.origin}${link.pathname}`).toBe(`${site}/auth/confirm`);
    expect(link.searchParams.get("type")).toBe("invite");
    expect(link.searchParams.get("next")).toBe(`${site}/auth/callback`);
    const verified = await client().auth.verifyOtp({ type: "invite", token_hash: link.searchParams.get("token_hash")! });
    expect(verified.error).toBeNull();
    expect(decodeJwt(verified.data.session!.access_token).email).toBe(email);
    expect((await admin().auth.admin.inviteUserByEmail(email)).error).toMatchObject({ status: 422, code: "email_exists" });
  });

  test("admin routes refuse a non-admin token: not_admin", async () => {
    const user = await createConfirmedUser("notadmin");
    const token = (await client().auth.signInWithPassword({ email: user.email, password: user.password })).data.session!.access_token;
    const response = await authFetch("/admin/users", { bearer: token, apiVersion: true });
    expect(response).toMatchObject({ status: 403, body: { code: "not_admin", message: "User not allowed" } });
    const anon = await authFetch("/admin/users", { bearer: anonKey });
    expect(anon).toMatchObject({ status: 403, body: { code: 403, error_code: "not_admin", msg: "User not allowed" } });
  });
});

describe("settings, health, JWKS", () => {
  test("GET /settings reflects config.toml", async () => {
    const { status, body } = await authFetch("/settings");
    expect(status).toBe(200);
    // phone_autoconfirm is GoTrue's SMS_AUTOCONFIRM, which the CLI sets to !auth.sms.enable_confirmations.
    expect(body).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: true,
      external: { email: true, phone: false, web3_ethereum: true, github: false },
    });
  });

  test("GET /health and the open JWKS", async () => {
    expect(await authFetch("/health")).toMatchObject({ status: 200, body: { name: "GoTrue" } });
    const jwks = await fetch(`${apiUrl}/auth/v1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    // the project signs with an ES256 key (its shape: signing-keys.test.ts)
    expect(((await jwks.json()) as { keys: Array<{ alg: string }> }).keys.map((key) => key.alg)).toEqual(["ES256"]);
  });
});

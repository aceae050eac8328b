// Auth conformance for passkeys (GoTrue's /passkeys routes and the admin's /admin/users/{id}/passkeys),
// driven by supabase-js' auth.passkey and auth.admin.passkey with a software authenticator, against
// a fixture project whose [auth.webauthn] names the RP: id "localhost", origin http://localhost:5173.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { authServerWith } from "./auth-fixture.ts";
import { client, createConfirmedUser, decodeJwt, sql } from "./auth-helpers.ts";
import { anonKey, apiUrl, config, serviceRoleKey } from "./helpers/stack.ts";
import { createFixture, type Fixture } from "./rest-fixture.ts";
import { SoftCredential, flags } from "./webauthn-authenticator.ts";
import { createClient } from "@supabase/supabase-js";

const origin = "http://localhost:5173";
const webauthn = { rp_id: "localhost", rp_display_name: "Stack Test", rp_origins: [origin] };

let server: Awaited<ReturnType<typeof authServerWith>>;
let rest: Fixture;
beforeAll(async () => {
  server = await authServerWith({ passkey: { enabled: true }, webauthn });
  rest = await createFixture("pk");
});
afterAll(async () => {
  await rest?.teardown();
});

async function signedIn(label: string) {
  const user = await createConfirmedUser(label);
  const supabase = server.supabase();
  const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { ...user, supabase };
}

/** Registers a new software credential for a signed-in person; answers the credential and the server's passkey. */
async function registered(label: string) {
  const person = await signedIn(label);
  const credential = new SoftCredential();
  const { data: options, error } = await person.supabase.auth.passkey.startRegistration();
  if (error) throw error;
  const verified = await person.supabase.auth.passkey.verifyRegistration({
    challengeId: options!.challenge_id,
    credential: credential.create(options!.options, { origin }).toJSON(),
  });
  if (verified.error) throw verified.error;
  return { ...person, credential, passkey: verified.data! };
}

async function startSignIn() {
  const supabase = server.supabase();
  const { data, error } = await supabase.auth.passkey.startAuthentication();
  if (error) throw error;
  return { supabase, challengeId: data!.challenge_id, options: data!.options };
}

describe("passkey registration", () => {
  test("options are for the signed-in user, ask for a discoverable key, and expire; verify stores the credential", async () => {
    const person = await signedIn("pk-register");
    const before = Math.floor(Date.now() / 1000);
    const { data, error } = await person.supabase.auth.passkey.startRegistration();
    expect(error).toBeNull();
    expect(data!.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data!.expires_at).toBeGreaterThanOrEqual(before + 299);
    expect(data!.expires_at).toBeLessThanOrEqual(before + 301);
    expect(data!.options).toMatchObject({
      rp: { id: "localhost", name: "Stack Test" },
      user: { id: Buffer.from(person.id).toString("base64url"), name: person.email, displayName: person.email },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
      attestation: "none",
    });
    expect(data!.options.pubKeyCredParams).toContainEqual({ type: "public-key", alg: -7 });
    expect(data!.options.excludeCredentials).toBeUndefined();

    const credential = new SoftCredential();
    const verified = await person.supabase.auth.passkey.verifyRegistration({
      challengeId: data!.challenge_id,
      credential: credential.create(data!.options, { origin }).toJSON(),
    });
    expect(verified.error).toBeNull();
    expect(verified.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      friendly_name: "Passkey",
      created_at: expect.any(String),
    });

    const [row] = await sql<Record<string, unknown>>(
      `select user_id, credential_id, public_key, attestation_type, aaguid, sign_count, transports, backup_eligible, backed_up, friendly_name
       from auth.webauthn_credentials where id = $1`,
      [verified.data!.id],
    );
    expect(row).toEqual({
      user_id: person.id,
      credential_id: credential.id,
      public_key: credential.coseKey(),
      attestation_type: "none",
      aaguid: "00000000-0000-0000-0000-000000000000",
      sign_count: "0",
      transports: ["internal", "hybrid"],
      backup_eligible: true,
      backed_up: true,
      friendly_name: "Passkey",
    });
    // The challenge was spent; the next options exclude the registered credential.
    const again = await person.supabase.auth.passkey.verifyRegistration({
      challengeId: data!.challenge_id,
      credential: credential.create(data!.options, { origin }).toJSON(),
    });
    expect(again.error).toMatchObject({
      status: 400,
      code: "webauthn_challenge_not_found",
      message: "Challenge not found or already used",
    });
    const next = await person.supabase.auth.passkey.startRegistration();
    expect(next.data!.options.excludeCredentials).toEqual([{ type: "public-key", id: credential.idBase64url }]);
  });

  test("a challenge belongs to the user it was issued to; a signed-out caller gets no options", async () => {
    const alice = await signedIn("pk-owner");
    const bob = await signedIn("pk-other");
    const { data } = await alice.supabase.auth.passkey.startRegistration();
    const stolen = await bob.supabase.auth.passkey.verifyRegistration({
      challengeId: data!.challenge_id,
      credential: new SoftCredential().create(data!.options, { origin }).toJSON(),
    });
    expect(stolen.error).toMatchObject({ status: 400, code: "webauthn_challenge_not_found" });
    const anonymous = await server.fetch("/passkeys/registration/options", { method: "POST", body: "{}" });
    expect(anonymous).toMatchObject({ status: 401, body: { code: "no_authorization" } });
  });

  test("an attestation from another origin or for another RP id is refused", async () => {
    const person = await signedIn("pk-origin");
    for (const ceremony of [{ origin: "http://evil.example:5173" }, { origin, rpId: "evil.example" }]) {
      const { data } = await person.supabase.auth.passkey.startRegistration();
      const { error } = await person.supabase.auth.passkey.verifyRegistration({
        challengeId: data!.challenge_id,
        credential: new SoftCredential().create(data!.options, ceremony).toJSON(),
      });
      expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed", message: "Credential verification failed" });
    }
    const { data } = await person.supabase.auth.passkey.startRegistration();
    const { error } = await person.supabase.auth.passkey.verifyRegistration({
      challengeId: data!.challenge_id,
      credential: { id: 1 } as never,
    });
    expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed", message: "Invalid credential response" });
    expect(await sql("select 1 from auth.webauthn_credentials where user_id = $1", [person.id])).toEqual([]);
  });
});

describe("passkey sign-in", () => {
  test("discoverable options; the assertion signs in as the password grant does, with amr passkey, and REST accepts the session", async () => {
    const person = await registered("pk-signin");
    const { supabase, challengeId, options } = await startSignIn();
    expect(options).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      timeout: 300000,
      rpId: "localhost",
      userVerification: "preferred",
    });
    const { data, error } = await supabase.auth.passkey.verifyAuthentication({
      challengeId,
      credential: person.credential.get(options, { origin }).toJSON(),
    });
    expect(error).toBeNull();
    expect(data!.session).toMatchObject({ token_type: "bearer", refresh_token: expect.any(String), user: { id: person.id } });
    const claims = decodeJwt(data!.session!.access_token);
    expect(claims).toMatchObject({ sub: person.id, aal: "aal1", amr: [{ method: "passkey", timestamp: expect.any(Number) }] });
    expect((await supabase.auth.getSession()).data.session?.access_token).toBe(data!.session!.access_token);

    const whoami = await rest.rest(`/rpc/${rest.prefix}_whoami`, { token: data!.session!.access_token });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ uid: person.id, role: "authenticated" });

    const [row] = await sql<{ sign_count: string; last_used_at: Date | null }>(
      "select sign_count, last_used_at from auth.webauthn_credentials where id = $1",
      [person.passkey.id],
    );
    expect(row.sign_count).toBe("1");
    expect(row.last_used_at).toBeInstanceOf(Date);
    // The refresh token of a passkey session works as any other.
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
  });

  test("a replayed assertion, or a second one on the same challenge, is refused", async () => {
    const person = await registered("pk-replay");
    const { supabase, challengeId, options } = await startSignIn();
    const assertion = person.credential.get(options, { origin }).toJSON();
    expect((await supabase.auth.passkey.verifyAuthentication({ challengeId, credential: assertion })).error).toBeNull();
    const replayed = await server.supabase().auth.passkey.verifyAuthentication({ challengeId, credential: assertion });
    expect(replayed.error).toMatchObject({
      status: 400,
      code: "webauthn_challenge_not_found",
      message: "Challenge not found or already used",
    });
    // The same assertion against a fresh challenge signs the wrong challenge.
    const fresh = await startSignIn();
    const moved = await fresh.supabase.auth.passkey.verifyAuthentication({ challengeId: fresh.challengeId, credential: assertion });
    expect(moved.error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
  });

  test("an assertion from another origin, for another RP id, without user presence, or with a bad signature is refused", async () => {
    const person = await registered("pk-bad-assertion");
    const cases = [{ origin: "http://localhost:6666" }, { origin, rpId: "example.com" }, { origin, flags: flags.uv }];
    for (const ceremony of cases) {
      const { supabase, challengeId, options } = await startSignIn();
      const { error } = await supabase.auth.passkey.verifyAuthentication({
        challengeId,
        credential: person.credential.get(options, ceremony).toJSON(),
      });
      expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed", message: "Credential verification failed" });
    }
    const { supabase, challengeId, options } = await startSignIn();
    const forged = person.credential.get(options, { origin }).toJSON();
    const other = new SoftCredential();
    other.userHandle = person.credential.userHandle;
    const signature = other.get(options, { origin }).toJSON().response.signature;
    const { error } = await supabase.auth.passkey.verifyAuthentication({
      challengeId,
      credential: { ...forged, response: { ...forged.response, signature } },
    });
    expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
  });

  test("a sign count that does not grow is refused (a cloned authenticator)", async () => {
    const person = await registered("pk-count");
    const first = await startSignIn();
    const ok = await first.supabase.auth.passkey.verifyAuthentication({
      challengeId: first.challengeId,
      credential: person.credential.get(first.options, { origin, signCount: 5 }).toJSON(),
    });
    expect(ok.error).toBeNull();
    for (const signCount of [5, 4]) {
      const next = await startSignIn();
      const { error } = await next.supabase.auth.passkey.verifyAuthentication({
        challengeId: next.challengeId,
        credential: person.credential.get(next.options, { origin, signCount }).toJSON(),
      });
      expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
    }
    const [row] = await sql<{ sign_count: string }>("select sign_count from auth.webauthn_credentials where id = $1", [person.passkey.id]);
    expect(row.sign_count).toBe("5");
  });

  test("an expired challenge is refused (and spent)", async () => {
    const person = await registered("pk-expired");
    const { supabase, challengeId, options } = await startSignIn();
    await sql("update auth.webauthn_challenges set expires_at = now() - interval '1 second' where id = $1", [challengeId]);
    const { error } = await supabase.auth.passkey.verifyAuthentication({
      challengeId,
      credential: person.credential.get(options, { origin }).toJSON(),
    });
    expect(error).toMatchObject({ status: 400, code: "webauthn_challenge_expired", message: "Challenge has expired" });
    expect(await sql("select 1 from auth.webauthn_challenges where id = $1", [challengeId])).toEqual([]);
  });

  test("a credential the server does not know, or a user handle that is not its owner's, signs nobody in", async () => {
    const person = await registered("pk-unknown");
    const stranger = new SoftCredential();
    stranger.userHandle = person.credential.userHandle;
    const first = await startSignIn();
    const unknown = await first.supabase.auth.passkey.verifyAuthentication({
      challengeId: first.challengeId,
      credential: stranger.get(first.options, { origin }).toJSON(),
    });
    expect(unknown.error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
    const other = await registered("pk-unknown-other");
    person.credential.userHandle = other.credential.userHandle;
    const second = await startSignIn();
    const mismatched = await second.supabase.auth.passkey.verifyAuthentication({
      challengeId: second.challengeId,
      credential: person.credential.get(second.options, { origin }).toJSON(),
    });
    expect(mismatched.error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
  });
});

describe("managing passkeys", () => {
  test("list, rename and delete the caller's passkeys", async () => {
    const person = await registered("pk-manage");
    const listed = await person.supabase.auth.passkey.list();
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([{ id: person.passkey.id, friendly_name: "Passkey", created_at: expect.stringMatching(/Z$/) }]);

    const renamed = await person.supabase.auth.passkey.update({ passkeyId: person.passkey.id, friendlyName: "Work laptop" });
    expect(renamed.error).toBeNull();
    expect(renamed.data).toMatchObject({ id: person.passkey.id, friendly_name: "Work laptop" });
    const empty = await person.supabase.auth.passkey.update({ passkeyId: person.passkey.id, friendlyName: "" });
    expect(empty.error).toMatchObject({ status: 400, code: "validation_failed", message: "friendly_name is required" });
    const long = await person.supabase.auth.passkey.update({ passkeyId: person.passkey.id, friendlyName: "x".repeat(121) });
    expect(long.error).toMatchObject({ status: 400, code: "validation_failed", message: "friendly_name must be 120 characters or less" });

    expect((await person.supabase.auth.passkey.delete({ passkeyId: person.passkey.id })).error).toBeNull();
    expect((await person.supabase.auth.passkey.list()).data).toEqual([]);
    const gone = await person.supabase.auth.passkey.delete({ passkeyId: person.passkey.id });
    expect(gone.error).toMatchObject({ status: 404, code: "validation_failed", message: "Passkey not found" });
  });

  test("another user's passkey can be neither renamed nor deleted", async () => {
    const owner = await registered("pk-victim");
    const intruder = await signedIn("pk-intruder");
    const renamed = await intruder.supabase.auth.passkey.update({ passkeyId: owner.passkey.id, friendlyName: "mine now" });
    expect(renamed.error).toMatchObject({ status: 404, code: "validation_failed", message: "Passkey not found" });
    const deleted = await intruder.supabase.auth.passkey.delete({ passkeyId: owner.passkey.id });
    expect(deleted.error).toMatchObject({ status: 404, code: "validation_failed", message: "Passkey not found" });
    expect((await intruder.supabase.auth.passkey.list()).data).toEqual([]);
    expect((await owner.supabase.auth.passkey.list()).data).toEqual([
      expect.objectContaining({ id: owner.passkey.id, friendly_name: "Passkey" }),
    ]);
  });

  test("the admin lists and deletes a user's passkeys; other callers are refused", async () => {
    const person = await registered("pk-admin");
    const adminClient = createClient(server.url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const listed = await adminClient.auth.admin.passkey.listPasskeys({ userId: person.id });
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([expect.objectContaining({ id: person.passkey.id })]);
    const refused = await server.fetch(`/admin/users/${person.id}/passkeys`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: "not_admin" } });
    expect((await adminClient.auth.admin.passkey.deletePasskey({ userId: person.id, passkeyId: person.passkey.id })).error).toBeNull();
    expect((await adminClient.auth.admin.passkey.listPasskeys({ userId: person.id })).data).toEqual([]);
    const again = await adminClient.auth.admin.passkey.deletePasskey({ userId: person.id, passkeyId: person.passkey.id });
    expect(again.error).toMatchObject({ status: 404, code: "validation_failed" });
  });

  test("a soft-deleted user's passkeys are deleted with them and sign nobody in", async () => {
    const person = await registered("pk-soft-deleted");
    const adminClient = createClient(server.url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    expect((await adminClient.auth.admin.deleteUser(person.id, true)).error).toBeNull();
    expect(await sql("select 1 from auth.webauthn_credentials where user_id = $1", [person.id])).toEqual([]);
    const { supabase, challengeId, options } = await startSignIn();
    const { error } = await supabase.auth.passkey.verifyAuthentication({
      challengeId,
      credential: person.credential.get(options, { origin }).toJSON(),
    });
    expect(error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
  });

  test("[auth.passkey] enabled = false answers passkey_disabled on every route, and /settings says so", async () => {
    const off = await authServerWith({ passkey: { enabled: false }, webauthn });
    expect((await off.fetch("/settings")).body).toMatchObject({ passkeys_enabled: false });
    expect((await server.fetch("/settings")).body).toMatchObject({ passkeys_enabled: true });
    for (const [method, path] of [
      ["POST", "/passkeys/authentication/options"],
      ["POST", "/passkeys/registration/options"],
      ["GET", "/passkeys"],
    ]) {
      const response = await off.fetch(path, { method, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(response).toEqual({ status: 404, body: { code: "passkey_disabled", message: "Passkeys are disabled" } });
    }
  });
});

describe("the running stack", () => {
  test("serves passkeys with the RP taken from site_url when config.toml has no [auth.webauthn]", async () => {
    const auth = config.raw.auth as Record<string, unknown>;
    const configured = (auth.webauthn as { rp_id?: string } | undefined)?.rp_id;
    const siteUrl = process.env.STACK_AUTH_SITE_URL || String(auth.site_url);
    const user = await createConfirmedUser("pk-stack");
    const supabase = client();
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data, error } = await supabase.auth.passkey.startRegistration();
    expect(error).toBeNull();
    expect(data!.options.rp.id).toBe(configured ?? new URL(siteUrl).hostname);
    const credential = new SoftCredential();
    const verified = await supabase.auth.passkey.verifyRegistration({
      challengeId: data!.challenge_id,
      credential: credential.create(data!.options, { origin: new URL(siteUrl).origin }).toJSON(),
    });
    expect(verified.error).toBeNull();
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

// Auth conformance for WebAuthn MFA factors (GoTrue's /factors routes with factor_type webauthn),
// driven by supabase-js' auth.mfa with the software authenticator, against fixture projects whose
// [auth.webauthn] names the RP (id "localhost", origin http://localhost:5173) and whose
// [auth.mfa.web_authn] is on unless a test turns it off.
import { beforeAll, describe, expect, test } from "vitest";
import { authServerWith } from "./auth-fixture.ts";
import { createConfirmedUser, decodeJwt, sql } from "./auth-helpers.ts";
import { SoftCredential } from "./webauthn-authenticator.ts";

const origin = "http://localhost:5173";
const webauthn = { rp_id: "localhost", rp_display_name: "Stack Test", rp_origins: [origin] };
/** What auth-js sends with a WebAuthn challenge (GoTrue reads its RP from its own settings). */
const rp = { rpId: "localhost", rpOrigins: [origin] };

let server: Awaited<ReturnType<typeof authServerWith>>;
beforeAll(async () => {
  server = await authServerWith({
    passkey: { enabled: true },
    webauthn,
    mfa: { web_authn: { enroll_enabled: true, verify_enabled: true } },
  });
});

async function signedIn(label: string, on = server) {
  const user = await createConfirmedUser(label);
  const supabase = on.supabase();
  const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { ...user, supabase };
}

type Person = Awaited<ReturnType<typeof signedIn>>;

/** Enrols a WebAuthn factor and verifies its creation challenge: the session is then aal2. */
async function enrolled(person: Person, friendlyName = "Security key") {
  const { data: factor, error } = await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName });
  if (error) throw error;
  const { data: challenge, error: challengeError } = await person.supabase.auth.mfa.challenge({ factorId: factor.id, webauthn: rp });
  if (challengeError) throw challengeError;
  if (challenge.type !== "webauthn" || challenge.webauthn.type !== "create") throw new Error("expected creation options");
  const credential = new SoftCredential();
  const verified = await person.supabase.auth.mfa.verify({
    factorId: factor.id,
    challengeId: challenge.id,
    webauthn: {
      type: "create",
      credential_response: credential.create(challenge.webauthn.credential_options.publicKey as never, { origin }) as never,
    },
  } as never);
  if (verified.error) throw verified.error;
  return { factorId: factor.id, credential, session: verified.data as unknown as { access_token: string } };
}

/** A challenge of a verified factor: request options (auth-js has turned their buffers into ArrayBuffers). */
async function requestChallenge(person: Person, factorId: string) {
  const { data, error } = await person.supabase.auth.mfa.challenge({ factorId, webauthn: rp });
  if (error) throw error;
  if (data.type !== "webauthn" || data.webauthn.type !== "request") throw new Error("expected request options");
  return { id: data.id, publicKey: data.webauthn.credential_options.publicKey as unknown as { challenge: ArrayBuffer; rpId: string } };
}

async function verifyAssertion(person: Person, factorId: string, challengeId: string, assertion: unknown) {
  return await person.supabase.auth.mfa.verify({
    factorId,
    challengeId,
    webauthn: { type: "request", credential_response: assertion as never },
  } as never);
}

describe("WebAuthn factors", () => {
  test("enroll, then the first challenge creates a credential and verifying it reaches aal2 with amr mfa/webauthn", async () => {
    const person = await signedIn("wa-enroll");
    const { data: factor, error } = await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Security key" });
    expect(error).toBeNull();
    expect(factor).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: "webauthn", friendly_name: "Security key" });

    const raw = await server.fetch(`/factors/${factor!.id}/challenge`, {
      method: "POST",
      body: "{}",
      bearer: (await person.supabase.auth.getSession()).data.session!.access_token,
    });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({
      id: expect.any(String),
      type: "webauthn",
      expires_at: expect.any(Number),
      webauthn: {
        type: "create",
        credential_options: {
          publicKey: {
            rp: { id: "localhost", name: "Stack Test" },
            user: { id: Buffer.from(person.id).toString("base64url"), name: person.email, displayName: person.email },
            challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            attestation: "none",
          },
        },
      },
    });

    const { session, credential } = await enrolled(person, "Second key");
    const claims = decodeJwt(session.access_token);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((entry) => entry.method).sort()).toEqual(["mfa/webauthn", "password"]);
    const aal = await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });

    const listed = await person.supabase.auth.mfa.listFactors();
    expect(listed.data!.webauthn).toEqual([
      expect.objectContaining({
        friendly_name: "Second key",
        factor_type: "webauthn",
        status: "verified",
        web_authn_aaguid: "00000000-0000-0000-0000-000000000000",
      }),
    ]);
    // The other unverified WebAuthn factor is gone, as GoTrue drops them once one is verified.
    expect(listed.data!.all).toHaveLength(1);
    const [row] = await sql<{ credential: { id: string; publicKey: string; authenticator: { signCount: number } } }>(
      "select web_authn_credential as credential from auth.mfa_factors where user_id = $1",
      [person.id],
    );
    expect(Buffer.from(row.credential.id, "base64")).toEqual(credential.id);
    expect(Buffer.from(row.credential.publicKey, "base64")).toEqual(credential.coseKey());
  });

  test("a later sign-in's challenge asks for the enrolled credential; its assertion reaches aal2 once", async () => {
    const person = await signedIn("wa-request");
    const { factorId, credential } = await enrolled(person);
    const again = person.supabase;
    await again.auth.signInWithPassword({ email: person.email, password: person.password });
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });

    const challenge = await requestChallenge(person, factorId);
    expect(challenge.publicKey).toMatchObject({ rpId: "localhost", userVerification: "preferred" });
    expect(
      (challenge.publicKey as unknown as { allowCredentials: { id: ArrayBuffer }[] }).allowCredentials.map((c) => Buffer.from(c.id)),
    ).toEqual([credential.id]);
    const assertion = credential.get(challenge.publicKey, { origin });
    const verified = await verifyAssertion(person, factorId, challenge.id, assertion);
    expect(verified.error).toBeNull();
    expect(decodeJwt((verified.data as unknown as { access_token: string }).access_token)).toMatchObject({ aal: "aal2" });

    // The challenge is spent: the same assertion again finds nothing to verify against.
    const replayed = await verifyAssertion(person, factorId, challenge.id, assertion);
    expect(replayed.error).toMatchObject({ status: 422, code: "mfa_factor_not_found" });
    const [row] = await sql<{ credential: { authenticator: { signCount: number } } }>(
      "select web_authn_credential as credential from auth.mfa_factors where id = $1",
      [factorId],
    );
    expect(row.credential.authenticator.signCount).toBe(1);
  });

  test("a wrong origin, a sign count that does not grow or a new credential on a request challenge does not reach aal2", async () => {
    const person = await signedIn("wa-refused");
    const { factorId, credential } = await enrolled(person);
    await person.supabase.auth.signInWithPassword({ email: person.email, password: person.password });

    const wrongOrigin = await requestChallenge(person, factorId);
    const refused = await verifyAssertion(
      person,
      factorId,
      wrongOrigin.id,
      credential.get(wrongOrigin.publicKey, { origin: "http://localhost:9999" }),
    );
    expect(refused.error).toMatchObject({ status: 500, message: "Failed to validate WebAuthn MFA response" });

    const good = await requestChallenge(person, factorId);
    expect((await verifyAssertion(person, factorId, good.id, credential.get(good.publicKey, { origin, signCount: 3 }))).error).toBeNull();
    await person.supabase.auth.signInWithPassword({ email: person.email, password: person.password });
    const stale = await requestChallenge(person, factorId);
    const counted = await verifyAssertion(person, factorId, stale.id, credential.get(stale.publicKey, { origin, signCount: 3 }));
    expect(counted.error).toMatchObject({ status: 500, message: "Failed to validate WebAuthn MFA response" });

    const swapped = await requestChallenge(person, factorId);
    const intruder = new SoftCredential();
    const created = await person.supabase.auth.mfa.verify({
      factorId,
      challengeId: swapped.id,
      webauthn: {
        type: "create",
        credential_response: intruder.create(
          {
            rp: { id: "localhost", name: "x" },
            user: { id: Buffer.from(person.id).toString("base64url") },
            challenge: swapped.publicKey.challenge,
          },
          { origin },
        ) as never,
      },
    } as never);
    expect(created.error).toMatchObject({ status: 500 });
    expect((await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1" });
  });

  test("an expired challenge is refused and removed", async () => {
    const person = await signedIn("wa-expired");
    const { factorId, credential } = await enrolled(person);
    const challenge = await requestChallenge(person, factorId);
    await sql("update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1", [challenge.id]);
    const { error } = await verifyAssertion(person, factorId, challenge.id, credential.get(challenge.publicKey, { origin }));
    expect(error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });
    expect(await sql("select 1 from auth.mfa_challenges where id = $1", [challenge.id])).toEqual([]);
  });

  test("verify needs the webauthn member, a known type and a credential response", async () => {
    const person = await signedIn("wa-params");
    const { data: factor } = await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Key" });
    const { data: challenge } = await person.supabase.auth.mfa.challenge({ factorId: factor!.id });
    const bearer = (await person.supabase.auth.getSession()).data.session!.access_token;
    const verify = (body: unknown) => server.fetch(`/factors/${factor!.id}/verify`, { method: "POST", body: JSON.stringify(body), bearer });
    expect(await verify({ challenge_id: challenge!.id })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "WebAuthn config required" },
    });
    expect(await verify({ challenge_id: challenge!.id, webauthn: { type: "other", credential_response: {} } })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "WebAuthn type must be create or request" },
    });
    expect(await verify({ challenge_id: challenge!.id, webauthn: { type: "create" } })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "credential_response required" },
    });
    expect(await verify({ challenge_id: challenge!.id, webauthn: { type: "create", credential_response: { id: 7 } } })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "Invalid credential_response" },
    });
  });

  test("unenrolling from an aal2 session removes the factor and its aal2", async () => {
    const person = await signedIn("wa-unenroll");
    const { factorId } = await enrolled(person);
    const { error } = await person.supabase.auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    expect((await person.supabase.auth.mfa.listFactors()).data!.all).toEqual([]);
    await person.supabase.auth.refreshSession();
    expect((await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
    });
  });

  test("WebAuthn factors count toward max_enrolled_factors, and a second factor needs aal2", async () => {
    const limited = await authServerWith({
      webauthn,
      mfa: { max_enrolled_factors: 2, web_authn: { enroll_enabled: true, verify_enabled: true } },
    });
    const person = await signedIn("wa-limit", limited);
    expect((await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "App" })).error).toBeNull();
    expect((await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Key" })).error).toBeNull();
    const third = await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Another key" });
    expect(third.error).toMatchObject({ status: 422, code: "too_many_enrolled_mfa_factors" });

    const other = await signedIn("wa-aal2", limited);
    await enrolled(other);
    await other.supabase.auth.signInWithPassword({ email: other.email, password: other.password });
    const second = await other.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Backup key" });
    expect(second.error).toMatchObject({ status: 403, code: "insufficient_aal" });
  });

  test("with MFA on, passkeys are registered only from an aal2 session", async () => {
    const person = await signedIn("wa-passkey");
    const { factorId, credential } = await enrolled(person);
    await person.supabase.auth.signInWithPassword({ email: person.email, password: person.password });
    const refused = await person.supabase.auth.passkey.startRegistration();
    expect(refused.error).toMatchObject({
      status: 403,
      code: "insufficient_aal",
      message: "AAL2 session is required to manage passkeys when MFA is enabled",
    });
    const challenge = await requestChallenge(person, factorId);
    expect((await verifyAssertion(person, factorId, challenge.id, credential.get(challenge.publicKey, { origin }))).error).toBeNull();
    expect((await person.supabase.auth.passkey.startRegistration()).error).toBeNull();
  });

  test("[auth.mfa.web_authn] switched off answers GoTrue's codes", async () => {
    const off = await authServerWith({ webauthn, mfa: { web_authn: { enroll_enabled: false, verify_enabled: false } } });
    const person = await signedIn("wa-off", off);
    const { error } = await person.supabase.auth.mfa.enroll({ factorType: "webauthn", friendlyName: "Key" });
    expect(error).toMatchObject({ status: 422, code: "mfa_webauthn_enroll_not_enabled", message: "MFA enroll is disabled for WebAuthn" });

    const { factorId } = await enrolled(await signedIn("wa-was-on"));
    const [{ user_id: owner }] = await sql<{ user_id: string }>("select user_id from auth.mfa_factors where id = $1", [factorId]);
    const [{ email }] = await sql<{ email: string }>("select email from auth.users where id = $1", [owner]);
    const again = off.supabase();
    await again.auth.signInWithPassword({ email, password: "correct-horse-battery" });
    const challenge = await again.auth.mfa.challenge({ factorId });
    expect(challenge.error).toMatchObject({
      status: 422,
      code: "mfa_webauthn_verify_not_enabled",
      message: "MFA verification is disabled for WebAuthn",
    });
  });
});

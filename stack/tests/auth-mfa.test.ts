// Auth conformance for MFA (GoTrue's /factors routes), driven by supabase-js' auth.mfa and
// auth.admin.mfa against the stack as config.toml's [auth.mfa] sets it up: TOTP and phone factors
// on, at most 10 factors a user, the test number 14152127777 answering 123456.
import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { admin, authFetch, client, createConfirmedUser, decodeJwt, sql } from "./auth-helpers.ts";

// RFC 6238 written out here (not imported from the server), so the test checks the server against
// the standard rather than against itself.
function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

function totp(secret: string, offsetSteps = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offsetSteps));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const offset = mac[19] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signedIn(label: string) {
  const user = await createConfirmedUser(label);
  const supabase = client();
  const { error } = await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return { ...user, supabase };
}

async function accessToken(supabase: ReturnType<typeof client>): Promise<string> {
  const { data } = await supabase.auth.getSession();
  return data.session!.access_token;
}

/** A user with a verified TOTP factor, signed in at aal2 (the code used is spent). */
async function withVerifiedTotp(label: string) {
  const person = await signedIn(label);
  const { data: enrolled, error } = await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone app" });
  if (error) throw error;
  // The code that was used, not one computed again after: a 30 s step may have begun in between.
  const usedCode = totp(enrolled.totp.secret);
  const verified = await person.supabase.auth.mfa.challengeAndVerify({ factorId: enrolled.id, code: usedCode });
  if (verified.error) throw verified.error;
  return { ...person, factorId: enrolled.id, secret: enrolled.totp.secret, usedCode };
}

describe("TOTP factors", () => {
  test("enroll answers a QR code, the secret and an otpauth URI; the factor starts unverified", async () => {
    const person = await signedIn("mfa-enroll");
    const { data, error } = await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator" });
    expect(error).toBeNull();
    expect(data).toMatchObject({ type: "totp", friendly_name: "Authenticator", id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    // The issuer defaults to the site URL's host; the account is the user's email.
    const issuer = new URL(data!.totp.uri).searchParams.get("issuer")!;
    expect(issuer).toMatch(/^[\w.-]+(:\d+)?$/);
    expect(data!.totp.uri).toBe(
      `otpauth://totp/${issuer}:${person.email}?algorithm=SHA1&digits=6&issuer=${encodeURIComponent(issuer)}&period=30&secret=${data!.totp.secret}`,
    );

    const { data: user } = await person.supabase.auth.getUser();
    expect(user.user?.factors).toEqual([
      expect.objectContaining({
        id: data!.id,
        friendly_name: "Authenticator",
        factor_type: "totp",
        status: "unverified",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      }),
    ]);
    const listed = await person.supabase.auth.mfa.listFactors();
    expect(listed.data?.all).toHaveLength(1);
    expect(listed.data?.totp).toEqual([]);
    const aal = await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
      currentAuthenticationMethods: [{ method: "password", timestamp: expect.any(Number) }],
    });
  });

  test("a right code lifts the session to aal2 with totp in amr; refresh keeps aal2; a new sign-in is aal1 until verified", async () => {
    const person = await withVerifiedTotp("mfa-verify");
    const token = decodeJwt(await accessToken(person.supabase));
    expect(token.aal).toBe("aal2");
    expect((token.amr as { method: string }[]).map((entry) => entry.method).sort()).toEqual(["password", "totp"]);
    expect(token.session_id).toEqual(expect.any(String));
    const aal = await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    expect(aal.data?.currentAuthenticationMethods[0]).toMatchObject({ method: "totp" });
    expect((await person.supabase.auth.mfa.listFactors()).data?.totp).toEqual([
      expect.objectContaining({ id: person.factorId, status: "verified" }),
    ]);

    const refreshed = await person.supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ aal: "aal2", session_id: token.session_id });

    const again = client();
    await again.auth.signInWithPassword({ email: person.email, password: person.password });
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    expect(decodeJwt(await accessToken(again)).aal).toBe("aal1");
  });

  test("verifying ends the user's other aal1 sessions, as GoTrue does", async () => {
    const person = await signedIn("mfa-others");
    const other = client();
    await other.auth.signInWithPassword({ email: person.email, password: person.password });
    const { data: enrolled } = await person.supabase.auth.mfa.enroll({ factorType: "totp" });
    expect(
      (await person.supabase.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: totp(enrolled!.totp.secret) })).error,
    ).toBeNull();
    const { error } = await other.auth.refreshSession();
    expect(error).toMatchObject({ code: "refresh_token_not_found" });
  });
});

describe("bad input", () => {
  test("a wrong code: 422 mfa_verification_failed, and the session stays aal1", async () => {
    const person = await signedIn("mfa-wrong");
    const { data: enrolled } = await person.supabase.auth.mfa.enroll({ factorType: "totp" });
    const right = totp(enrolled!.totp.secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    const { error } = await person.supabase.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: wrong });
    expect(error).toMatchObject({ status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" });
    expect(decodeJwt(await accessToken(person.supabase)).aal).toBe("aal1");
    const empty = await person.supabase.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: "" });
    expect(empty.error).toMatchObject({ status: 400, code: "validation_failed", message: "Code needs to be non-empty" });
  });

  test("a code already used is refused on a new challenge, and a verified challenge cannot be verified again", async () => {
    const person = await withVerifiedTotp("mfa-reuse");
    const second = client();
    await second.auth.signInWithPassword({ email: person.email, password: person.password });
    const replay = await second.auth.mfa.challengeAndVerify({ factorId: person.factorId, code: person.usedCode });
    expect(replay.error).toMatchObject({ status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" });
    expect(decodeJwt(await accessToken(second)).aal).toBe("aal1");

    const { data: challenge } = await second.auth.mfa.challenge({ factorId: person.factorId });
    await sql("update auth.mfa_challenges set verified_at = now() where id = $1", [challenge!.id]);
    const reused = await second.auth.mfa.verify({ factorId: person.factorId, challengeId: challenge!.id, code: totp(person.secret, 1) });
    expect(reused.error).toMatchObject({ status: 422, code: "mfa_ip_address_mismatch" });
  });

  test("an expired challenge: 422 mfa_challenge_expired, and the challenge is gone", async () => {
    const person = await signedIn("mfa-expired");
    const { data: enrolled } = await person.supabase.auth.mfa.enroll({ factorType: "totp" });
    const { data: challenge, error } = await person.supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(error).toBeNull();
    expect(challenge).toMatchObject({ type: "totp", id: expect.any(String) });
    expect(challenge!.expires_at - Date.now() / 1000).toBeGreaterThan(290);
    expect(challenge!.expires_at - Date.now() / 1000).toBeLessThanOrEqual(300);
    await sql("update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1", [challenge!.id]);
    const late = await person.supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge!.id,
      code: totp(enrolled!.totp.secret),
    });
    expect(late.error).toMatchObject({
      status: 422,
      code: "mfa_challenge_expired",
      message: `MFA challenge ${challenge!.id} has expired, verify against another challenge or create a new challenge.`,
    });
    expect(await sql("select id from auth.mfa_challenges where id = $1", [challenge!.id])).toEqual([]);
    const unknown = await person.supabase.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge!.id,
      code: totp(enrolled!.totp.secret),
    });
    expect(unknown.error).toMatchObject({
      status: 422,
      code: "mfa_factor_not_found",
      message: "MFA factor with the provided challenge ID not found",
    });
  });

  test("another user's factor is not found: challenge, verify and unenroll all answer 404", async () => {
    const owner = await signedIn("mfa-owner");
    const { data: enrolled } = await owner.supabase.auth.mfa.enroll({ factorType: "totp" });
    const { data: challenge } = await owner.supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    const intruder = await signedIn("mfa-intruder");
    const notFound = { status: 404, code: "mfa_factor_not_found", message: "Factor not found" };
    expect((await intruder.supabase.auth.mfa.challenge({ factorId: enrolled!.id })).error).toMatchObject(notFound);
    expect(
      (await intruder.supabase.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge!.id, code: totp(enrolled!.totp.secret) }))
        .error,
    ).toMatchObject(notFound);
    expect((await intruder.supabase.auth.mfa.unenroll({ factorId: enrolled!.id })).error).toMatchObject(notFound);
    expect(decodeJwt(await accessToken(intruder.supabase)).aal).toBe("aal1");
    // The owner's factor is untouched.
    expect(await sql("select status::text from auth.mfa_factors where id = $1", [enrolled!.id])).toEqual([{ status: "unverified" }]);
  });

  test("enrolling past max_enrolled_factors: 422 too_many_enrolled_mfa_factors; a clashing name: mfa_factor_name_conflict", async () => {
    const person = await signedIn("mfa-limit");
    for (let i = 0; i < 10; i++) {
      const { error } = await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: `App ${i}` });
      expect(error).toBeNull();
    }
    const { error } = await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "App 10" });
    expect(error).toMatchObject({
      status: 422,
      code: "too_many_enrolled_mfa_factors",
      message: "Maximum number of verified factors reached, unenroll to continue",
    });
    const clash = await person.supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "App 3" });
    expect(clash.error).toMatchObject({
      status: 422,
      code: "mfa_factor_name_conflict",
      message: 'A factor with the friendly name "App 3" for this user already exists',
    });
    expect(await sql("select count(*)::int as n from auth.mfa_factors where user_id = $1", [person.id])).toEqual([{ n: 10 }]);
  });

  test("an aal1 session of a user with a verified factor can neither enroll another factor nor remove the verified one", async () => {
    const person = await withVerifiedTotp("mfa-aal1");
    const aal1 = client();
    await aal1.auth.signInWithPassword({ email: person.email, password: person.password });
    expect((await aal1.auth.mfa.enroll({ factorType: "totp", friendlyName: "Second" })).error).toMatchObject({
      status: 403,
      code: "insufficient_aal",
      message: "AAL2 required to enroll a new factor",
    });
    expect((await aal1.auth.mfa.unenroll({ factorId: person.factorId })).error).toMatchObject({
      status: 422,
      code: "insufficient_aal",
      message: "AAL2 required to unenroll verified factor",
    });
    expect(await sql("select status::text from auth.mfa_factors where id = $1", [person.factorId])).toEqual([{ status: "verified" }]);
  });

  test("unknown factor type, WebAuthn on by default, a malformed factor id, anonymous callers", async () => {
    const person = await signedIn("mfa-misc");
    const token = await accessToken(person.supabase);
    const badType = await authFetch("/factors", {
      method: "POST",
      bearer: token,
      body: JSON.stringify({ factor_type: "sms" }),
      apiVersion: true,
    });
    expect(badType).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "factor_type needs to be totp, phone, or webauthn" },
    });
    const webauthn = await authFetch("/factors", {
      method: "POST",
      bearer: token,
      body: JSON.stringify({ factor_type: "webauthn" }),
      apiVersion: true,
    });
    // WebAuthn factors are on without [auth.mfa.web_authn] (auth-mfa-webauthn.test.ts drives them).
    expect(webauthn).toMatchObject({ status: 200, body: { type: "webauthn", friendly_name: "" } });
    const malformed = await authFetch("/factors/not-a-uuid/challenge", { method: "POST", bearer: token, apiVersion: true });
    expect(malformed).toMatchObject({ status: 404, body: { code: "validation_failed", message: "factor_id must be an UUID" } });
    const noToken = await authFetch("/factors", { method: "POST", body: JSON.stringify({ factor_type: "totp" }), apiVersion: true });
    expect(noToken).toMatchObject({ status: 401, body: { code: "no_authorization" } });
  });
});

describe("unenroll", () => {
  test("from aal2 the verified factor goes, and the session falls back to aal1 on refresh", async () => {
    const person = await withVerifiedTotp("mfa-unenroll");
    const { data, error } = await person.supabase.auth.mfa.unenroll({ factorId: person.factorId });
    expect(error).toBeNull();
    expect(data).toEqual({ id: person.factorId });
    const refreshed = await person.supabase.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe("aal1");
    expect(refreshed.data.user?.factors ?? []).toEqual([]);
    expect((await person.supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
    });
  });
});

describe("phone factors with the configured test OTP", () => {
  test("enroll, challenge and verify with 123456: aal2 with mfa/phone; a wrong code and a too-early challenge are refused", async () => {
    const person = await signedIn("mfa-phone");
    const { data: enrolled, error } = await person.supabase.auth.mfa.enroll({ factorType: "phone", phone: "+14152127777" });
    expect(error).toBeNull();
    expect(enrolled).toMatchObject({ type: "phone", phone: "+14152127777" });
    const { data: challenge } = await person.supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(challenge).toMatchObject({ type: "phone" });
    const wrong = await person.supabase.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge!.id, code: "000000" });
    expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed", message: "Invalid MFA Phone code entered" });
    const early = await person.supabase.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(early.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
    const ok = await person.supabase.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge!.id, code: "123456" });
    expect(ok.error).toBeNull();
    const token = decodeJwt(ok.data!.access_token);
    expect(token.aal).toBe("aal2");
    expect((token.amr as { method: string }[])[0].method).toBe("mfa/phone");
    const { data: user } = await person.supabase.auth.getUser();
    expect(user.user?.factors).toEqual([expect.objectContaining({ factor_type: "phone", status: "verified", phone: "14152127777" })]);
    const invalid = await person.supabase.auth.mfa.enroll({ factorType: "phone", phone: "not-a-phone", friendlyName: "x" });
    expect(invalid.error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Invalid phone number format (E.164 required)",
    });
  });
});

describe("admin factor APIs", () => {
  test("list a user's factors and delete one; the user's sessions fall back to aal1", async () => {
    const person = await withVerifiedTotp("mfa-admin");
    const service = admin();
    const listed = await service.auth.admin.mfa.listFactors({ userId: person.id });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: person.factorId, factor_type: "totp", status: "verified", friendly_name: "Phone app" }),
    ]);
    const deleted = await service.auth.admin.mfa.deleteFactor({ userId: person.id, id: person.factorId });
    expect(deleted.error).toBeNull();
    // auth-js hands back the response wrapped once more: { data: <factor>, error: null }.
    expect((deleted.data as unknown as { data: { id: string; factor_type: string } }).data).toMatchObject({
      id: person.factorId,
      factor_type: "totp",
    });
    expect((await service.auth.admin.mfa.listFactors({ userId: person.id })).data?.factors).toEqual([]);
    const refreshed = await person.supabase.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe("aal1");
    const missing = await service.auth.admin.mfa.deleteFactor({ userId: person.id, id: person.factorId });
    expect(missing.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    const userToken = await accessToken(person.supabase);
    const notAdmin = await authFetch(`/admin/users/${person.id}/factors`, { bearer: userToken, apiVersion: true });
    expect(notAdmin).toMatchObject({ status: 403, body: { code: "not_admin" } });
  });
});

import { isIP } from "node:net";
import { audit } from "./audit.ts";
import { generateRefreshToken, randomUUID } from "./crypto.ts";
import { AuthError, badRequest, forbidden, notFound, tooManyRequests, unprocessable } from "./errors.ts";
import { clientIp } from "./request.ts";
import { type AuthService, type Call, type Caller, requireUser } from "./service.ts";
import { type AuthMethod, type SessionResponse, sessionTokens } from "./sessions.ts";
import { generateTotpSecret, matchTotp, otpauthUri, qrCodeSvg } from "./totp.ts";
import { type Db, type UserRow, factorJson, withTransaction } from "./users.ts";

// Supabase MFA (routes/factors.ts serves GoTrue's /factors routes): TOTP, phone and WebAuthn
// factors, challenges and verification that lift the session to aal2. A WebAuthn factor's first
// challenge asks the browser to create a credential, the later ones to use it (webauthn.ts).

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** GoTrue's minimum (and default) lifetimes of a challenge and of a factor never verified. */
const challengeExpirySeconds = 300;
const unverifiedFactorExpirySeconds = 300;

export type FactorType = "totp" | "phone" | "webauthn";

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: FactorType;
  status: "verified" | "unverified";
  secret: string | null;
  phone: string | null;
  last_challenged_at: Date | null;
}

const typeLabel: Record<FactorType, string> = { totp: "TOTP", phone: "Phone", webauthn: "WebAuthn" };
const amrMethod: Record<FactorType, AuthMethod | "mfa/webauthn"> = { totp: "totp", phone: "mfa/phone", webauthn: "mfa/webauthn" };

export function factorType(value: string): FactorType {
  if (value === "totp" || value === "phone" || value === "webauthn") return value;
  throw badRequest("validation_failed", "factor_type needs to be totp, phone, or webauthn");
}

/** The factor kind's enroll or verify switch in [auth.mfa] (a challenge needs the verify switch). */
export function enabled(svc: AuthService, type: FactorType, action: "enroll" | "challenge" | "verify"): void {
  const on = svc.settings.mfa[type][action === "enroll" ? "enroll" : "verify"];
  if (on) return;
  if (action === "enroll") throw unprocessable(`mfa_${type}_enroll_not_enabled`, `MFA enroll is disabled for ${typeLabel[type]}`);
  // GoTrue reports a disabled WebAuthn verification with its enroll code (a challenge with its own).
  throw unprocessable(
    type === "webauthn" && action === "verify" ? "mfa_webauthn_enroll_not_enabled" : `mfa_${type}_verify_not_enabled`,
    `MFA verification is disabled for ${typeLabel[type]}`,
  );
}

/** The address a challenge is bound to (GoTrue refuses a verify from another one). */
export function requestIp(call: Call): string {
  const ip = clientIp(call.req);
  return isIP(ip) ? ip : (call.req.socket.remoteAddress ?? "127.0.0.1");
}

export async function sessionAal(db: Db, sessionId: string | undefined): Promise<string | undefined> {
  if (!sessionId) return undefined;
  const { rows } = await db.query<{ aal: string | null }>("select aal from auth.sessions where id = $1", [sessionId]);
  return rows[0]?.aal ?? undefined;
}

/** The caller, who must be a registered user with a session. */
export async function callerWithSession(svc: AuthService, call: Call, action: string): Promise<Caller & { sessionId: string }> {
  const caller = await requireUser(svc, call);
  if (caller.claims.is_anonymous === true) throw forbidden("no_authorization", "Anonymous user not allowed to perform these actions");
  if (!caller.sessionId) throw new AuthError(500, "unexpected_failure", `A valid session and a registered user are required to ${action}`);
  return caller as Caller & { sessionId: string };
}

/** GoTrue's loadFactor: the caller's own factor, else 404 (another user's factor is "not found" too). */
export async function loadFactor(db: Db, user: Pick<UserRow, "id">, id: string, lock = false): Promise<FactorRow> {
  if (!uuidPattern.test(id)) throw notFound("validation_failed", "factor_id must be an UUID");
  const { rows } = await db.query<FactorRow>(
    `select id, user_id, friendly_name, factor_type, status, secret, phone, last_challenged_at from auth.mfa_factors where id = $1 and user_id = $2${lock ? " for update" : ""}`,
    [id, user.id],
  );
  if (!rows[0]) throw notFound("mfa_factor_not_found", "Factor not found");
  return rows[0];
}

/** GoTrue's validateFactors: expired unverified factors go; name clashes, the limit and aal2 for a second factor. */
export async function validateNewFactor(
  svc: AuthService,
  db: Db,
  userId: string,
  friendlyName: string,
  aal: string | undefined,
): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors f where f.user_id = $1 and f.status <> 'verified' and f.created_at + make_interval(secs => $2) < now()
       and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)`,
    [userId, unverifiedFactorExpirySeconds],
  );
  const { rows } = await db.query<{ friendly_name: string | null; status: string }>(
    "select friendly_name, status from auth.mfa_factors where user_id = $1",
    [userId],
  );
  if (rows.some((row) => (row.friendly_name ?? "") === friendlyName)) {
    throw unprocessable(
      "mfa_factor_name_conflict",
      `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
    );
  }
  const verified = rows.filter((row) => row.status === "verified").length;
  if (rows.length >= svc.settings.mfa.maxEnrolledFactors || verified >= svc.settings.mfa.maxVerifiedFactors) {
    throw unprocessable("too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue");
  }
  if (verified > 0 && aal !== "aal2") throw forbidden("insufficient_aal", "AAL2 required to enroll a new factor");
}

export function siteHost(svc: AuthService): string {
  try {
    return new URL(svc.settings.siteUrl).host;
  } catch {
    throw new AuthError(500, "unexpected_failure", "site url is improperly formatted");
  }
}

/** GoTrue's validatePhone: E.164 digits, stored without the leading "+". */
export function validPhone(input: string): string {
  const phone = input.trim().replace(/^\+/, "").replaceAll(" ", "");
  if (!/^[1-9]\d{1,14}$/.test(phone)) throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
  return phone;
}

/** POST /factors for TOTP: an unverified factor with a new secret, its otpauth URI and QR code. */
export async function enrollTotp(
  svc: AuthService,
  req: Call["req"],
  caller: Caller,
  friendlyName: string,
  issuer: string,
): Promise<Record<string, unknown>> {
  const secret = generateTotpSecret();
  const uri = otpauthUri(issuer, caller.user.email ?? "", secret);
  const id = randomUUID();
  await withTransaction(svc.pool, async (db) => {
    // The user's row is the lock that keeps two enrolments from both slipping under the limit.
    await db.query("select 1 from auth.users where id = $1 for update", [caller.user.id]);
    await validateNewFactor(svc, db, caller.user.id, friendlyName, await sessionAal(db, caller.sessionId));
    await db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [id, caller.user.id, friendlyName, secret],
    );
    await audit(db, req, caller.user, "factor_in_progress", { factor_id: id });
  });
  return { id, type: "totp", friendly_name: friendlyName, totp: { qr_code: qrCodeSvg(uri), secret, uri } };
}

/** POST /factors for a phone (`phone`: E.164 digits, `shown`: as the caller wrote it): an unverified factor. */
export async function enrollPhone(
  svc: AuthService,
  req: Call["req"],
  caller: Caller,
  friendlyName: string,
  phone: string,
  shown: string,
): Promise<Record<string, unknown>> {
  const id = randomUUID();
  await withTransaction(svc.pool, async (db) => {
    await db.query("select 1 from auth.users where id = $1 for update", [caller.user.id]);
    const { rows } = await db.query<{ status: string }>(
      "select status from auth.mfa_factors where user_id = $1 and factor_type = 'phone' and phone = $2",
      [caller.user.id, phone],
    );
    if (rows.some((row) => row.status === "verified")) {
      throw unprocessable("mfa_verified_factor_exists", "A verified phone factor already exists, unenroll the existing factor to continue");
    }
    await db.query("delete from auth.mfa_factors where user_id = $1 and factor_type = 'phone' and phone = $2 and status = 'unverified'", [
      caller.user.id,
      phone,
    ]);
    await validateNewFactor(svc, db, caller.user.id, friendlyName, await sessionAal(db, caller.sessionId));
    await db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, phone)
       values ($1, $2, $3, 'phone', 'unverified', now(), now(), $4)`,
      [id, caller.user.id, friendlyName, phone],
    );
    await audit(db, req, caller.user, "factor_in_progress", { factor_id: id, factor_type: "phone" });
  });
  return { id, type: "phone", friendly_name: friendlyName, phone: shown };
}

/** The code a phone challenge expects: the configured test OTP, else one that would go out by SMS. */
function phoneCode(svc: AuthService, phone: string): string {
  const test = svc.settings.mfa.testOtp[phone];
  if (test) return test;
  // No SMS provider is configured locally; only the test numbers can receive a code.
  throw new AuthError(500, "unexpected_failure", "Failed to get SMS provider");
}

/** POST /factors/{id}/challenge: a challenge bound to the caller's address; a phone factor's code is "sent". */
export async function createChallenge(
  svc: AuthService,
  req: Call["req"],
  caller: Caller,
  factor: FactorRow,
  ip: string,
): Promise<Record<string, unknown>> {
  const id = randomUUID();
  let otp: string | null = null;
  if (factor.factor_type === "phone") {
    const wait = svc.settings.mfa.phone.maxFrequencySeconds;
    if (factor.last_challenged_at && factor.last_challenged_at.getTime() + wait * 1000 > Date.now()) {
      const left = Math.ceil((factor.last_challenged_at.getTime() + wait * 1000 - Date.now()) / 1000);
      throw tooManyRequests("over_sms_send_rate_limit", `For security purposes, you can only request this after ${left} seconds.`);
    }
    otp = phoneCode(svc, factor.phone ?? "");
  }
  const { rows } = await withTransaction(svc.pool, async (db) => {
    const inserted = await db.query<{ created_at: Date }>(
      "insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, otp_code) values ($1, $2, now(), $3::inet, $4) returning created_at",
      [id, factor.id, ip, otp],
    );
    await db.query("update auth.mfa_factors set last_challenged_at = now() where id = $1", [factor.id]);
    await audit(db, req, caller.user, "challenge_created", { factor_id: factor.id, factor_status: factor.status });
    return inserted;
  });
  return { id, type: factor.factor_type, expires_at: Math.floor(rows[0].created_at.getTime() / 1000) + challengeExpirySeconds };
}

/** An expired challenge is deleted even though the verification fails (outside its transaction). */
export class ExpiredChallenge extends AuthError {
  readonly challengeId: string;
  constructor(challengeId: string, message: string) {
    super(422, "mfa_challenge_expired", message);
    this.challengeId = challengeId;
  }
}

export interface ChallengeRow {
  id: string;
  created_at: Date;
  verified_at: Date | null;
  ip_matches: boolean;
  otp_code: string | null;
}

/** GoTrue's validateChallenge: the factor's own challenge, unused, from this address, not expired. */
export async function validChallenge(db: Db, factor: FactorRow, challengeId: string, ip: string): Promise<ChallengeRow> {
  const { rows } = await db.query<ChallengeRow>(
    "select id, created_at, verified_at, ip_address = $3::inet as ip_matches, otp_code from auth.mfa_challenges where id = $1 and factor_id = $2 for update",
    [challengeId, factor.id, ip],
  );
  const found = rows[0];
  if (!found) throw unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found");
  if (found.verified_at || !found.ip_matches) throw unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.");
  if (found.created_at.getTime() + challengeExpirySeconds * 1000 < Date.now()) {
    throw new ExpiredChallenge(
      found.id,
      `MFA challenge ${found.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  return found;
}

/**
 * The time step a TOTP code belongs to, refusing a code whose step is not later than the last one
 * accepted for this factor (RFC 6238 §5.2): a code seen once cannot be replayed. The accepted step
 * is kept on the verified challenge's otp_code, which TOTP challenges do not otherwise use.
 */
async function acceptedTotpStep(db: Db, factor: FactorRow, code: string): Promise<number> {
  const step = matchTotp(factor.secret ?? "", code);
  const invalid = () => unprocessable("mfa_verification_failed", "Invalid TOTP code entered");
  if (step === undefined) throw invalid();
  const { rows } = await db.query<{ last: string | null }>(
    "select max(otp_code::bigint)::text as last from auth.mfa_challenges where factor_id = $1 and verified_at is not null and otp_code ~ '^[0-9]+$'",
    [factor.id],
  );
  if (rows[0]?.last && step <= Number(rows[0].last)) throw invalid();
  return step;
}

/** The session gains the factor's amr claim and aal2; its refresh token is swapped for a new one. */
export async function upgradeSession(db: Db, sessionId: string, factor: FactorRow, req: Call["req"], user: UserRow): Promise<string> {
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id) values ($1, now(), now(), $2, $3)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, amrMethod[factor.factor_type], randomUUID()],
  );
  await db.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [sessionId, factor.id]);
  const { rows } = await db.query<{ id: string; token: string }>(
    "select id, token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1 for update",
    [sessionId],
  );
  const issued = generateRefreshToken();
  if (rows[0]) await db.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [rows[0].id]);
  await db.query(
    "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)",
    [issued, user.id, rows[0]?.token ?? null, sessionId],
  );
  await audit(db, req, user, "token_refreshed");
  return issued;
}

/** POST /factors/{id}/verify: answers a new token pair for the same session, now aal2. */
export async function verifyFactor(
  svc: AuthService,
  req: Call["req"],
  caller: Caller & { sessionId: string },
  factorId: string,
  challengeId: string,
  code: string,
  ip: string,
): Promise<SessionResponse> {
  return await withTransaction(svc.pool, async (db) => {
    const locked = await loadFactor(db, caller.user, factorId, true);
    const found = await validChallenge(db, locked, challengeId || "00000000-0000-0000-0000-000000000000", ip);
    let usedStep: string | null = null;
    if (locked.factor_type === "totp") {
      usedStep = String(await acceptedTotpStep(db, locked, code));
    } else if (found.otp_code !== code) {
      throw unprocessable("mfa_verification_failed", "Invalid MFA Phone code entered");
    }
    await audit(db, req, caller.user, "verification_attempted", {
      factor_id: locked.id,
      challenge_id: found.id,
      factor_type: locked.factor_type,
    });
    await db.query("update auth.mfa_challenges set verified_at = now(), otp_code = coalesce($2, otp_code) where id = $1", [
      found.id,
      usedStep,
    ]);
    if (locked.status !== "verified")
      await db.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [locked.id]);
    const refreshToken = await upgradeSession(db, caller.sessionId, locked, req, caller.user);
    // GoTrue ends the user's sessions below aal2 and drops the other unverified factors of this type.
    await db.query("delete from auth.sessions where user_id = $1 and aal < 'aal2'", [caller.user.id]);
    await db.query("delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2", [
      caller.user.id,
      locked.factor_type,
    ]);
    return await sessionTokens(db, svc.settings, caller.user.id, caller.sessionId, refreshToken);
  }).catch(async (error: unknown) => {
    if (error instanceof ExpiredChallenge) await svc.pool.query("delete from auth.mfa_challenges where id = $1", [error.challengeId]);
    throw error;
  });
}

/** Sessions that reached aal2 with the factor lose its claim and fall back to aal1 (GoTrue's DowngradeSessionsToAAL1). */
async function removeFactor(db: Db, factor: FactorRow): Promise<void> {
  await db.query("delete from auth.mfa_factors where id = $1", [factor.id]);
  await db.query(
    "delete from auth.mfa_amr_claims where authentication_method = $2 and session_id in (select id from auth.sessions where factor_id = $1)",
    [factor.id, amrMethod[factor.factor_type]],
  );
  await db.query("update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1", [factor.id]);
}

/** DELETE /factors/{id}: a verified factor can only be removed from an aal2 session. */
export async function unenrollFactor(svc: AuthService, req: Call["req"], caller: Caller, factorId: string): Promise<void> {
  await withTransaction(svc.pool, async (db) => {
    const factor = await loadFactor(db, caller.user, factorId, true);
    if (factor.status === "verified" && (await sessionAal(db, caller.sessionId)) !== "aal2") {
      throw unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await removeFactor(db, factor);
    await audit(db, req, caller.user, "factor_unenrolled", {
      factor_id: factor.id,
      factor_status: factor.status,
      session_id: caller.sessionId,
    });
  });
}

async function factorBody(db: Db, id: string): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ factor: Record<string, unknown> }>(
    `select ${factorJson("f")} as factor from auth.mfa_factors f where f.id = $1`,
    [id],
  );
  return rows[0].factor;
}

/** DELETE /admin/users/{id}/factors/{factor_id}: the factor as it was. */
export async function deleteUserFactor(svc: AuthService, req: Call["req"], user: UserRow, id: string): Promise<Record<string, unknown>> {
  return await withTransaction(svc.pool, async (db) => {
    const factor = await loadFactor(db, user, id, true);
    const before = await factorBody(db, factor.id);
    await audit(db, req, user, "factor_deleted", { user_id: user.id, factor_id: factor.id });
    await removeFactor(db, factor);
    return before;
  });
}

/** PUT /admin/users/{id}/factors/{factor_id}: friendly_name, and a phone factor's number. */
export async function updateUserFactor(
  svc: AuthService,
  req: Call["req"],
  user: UserRow,
  id: string,
  friendlyName: string,
  phone: string,
): Promise<Record<string, unknown>> {
  return await withTransaction(svc.pool, async (db) => {
    const factor = await loadFactor(db, user, id, true);
    if (friendlyName)
      await db.query("update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1", [factor.id, friendlyName]);
    if (phone && factor.factor_type === "phone")
      await db.query("update auth.mfa_factors set phone = $2, updated_at = now() where id = $1", [factor.id, validPhone(phone)]);
    await audit(db, req, user, "factor_updated", { user_id: user.id, factor_id: factor.id, factor_type: factor.factor_type });
    return await factorBody(db, factor.id);
  });
}

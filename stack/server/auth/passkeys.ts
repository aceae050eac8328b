import type { IncomingMessage } from "node:http";
import { audit } from "./audit.ts";
import { randomUUID } from "./crypto.ts";
import { badRequest, forbidden, notFound, unprocessable } from "./errors.ts";
import { sessionAal, uuidPattern } from "./factors.ts";
import type { Caller } from "./service.ts";
import { type SessionResponse, issueSession } from "./sessions.ts";
import type { AuthSettings } from "./settings.ts";
import { type Db, type UserRow, findUserById, withTransaction } from "./users.ts";
import type pg from "pg";
import {
  CredentialVerificationFailed,
  InvalidCredentialResponse,
  type SessionData,
  type StoredCredential,
  assertionIdentity,
  creationOptions,
  passkeyFriendlyName,
  requestOptions,
  verifyAssertion,
  verifyRegistration,
} from "./webauthn.ts";

// Passkeys (GoTrue's /passkeys routes, routes/passkeys.ts): discoverable WebAuthn credentials in
// auth.webauthn_credentials, registered from a signed-in session and used to sign in without an
// email or password. Each ceremony's challenge is a row of auth.webauthn_challenges, deleted when
// it is used (so it is used once) and refused after its expiry.

interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: Buffer;
  public_key: Buffer;
  sign_count: string;
  transports: string[];
  friendly_name: string;
}

/** A passkey as GoTrue lists it: id, friendly_name (omitted when empty), created_at, last_used_at (omitted when never used). */
const passkeyJson = `jsonb_strip_nulls(jsonb_build_object('id', p.id, 'friendly_name', nullif(p.friendly_name, ''),
  'created_at', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
  'last_used_at', to_char(p.last_used_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))`;

const stored = (row: PasskeyRow): StoredCredential => ({
  id: row.credential_id,
  publicKey: row.public_key,
  signCount: Number(row.sign_count),
  transports: row.transports ?? [],
});

async function passkeysOf(db: Db, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await db.query<PasskeyRow>(
    "select id, user_id, credential_id, public_key, sign_count, transports, friendly_name from auth.webauthn_credentials where user_id = $1 order by created_at",
    [userId],
  );
  return rows;
}

/** GoTrue's WebAuthnName and WebAuthnDisplayName of a passkey user. */
function webauthnUser(user: UserRow) {
  const name = user.email || user.phone || "";
  const metaName = user.raw_user_meta_data?.name;
  return { id: user.id, name, displayName: typeof metaName === "string" && metaName ? metaName : name };
}

/**
 * GoTrue's requirePasskeyManagementAAL: a user with a verified MFA factor registers and deletes
 * passkeys only from an aal2 session (a token without a session never qualifies).
 */
async function requireManagementAal(db: Db, caller: Caller): Promise<void> {
  const mfaEnabled = caller.user.factors.some((factor) => factor.status === "verified");
  if (mfaEnabled && (await sessionAal(db, caller.sessionId)) !== "aal2") {
    throw forbidden("insufficient_aal", "AAL2 session is required to manage passkeys when MFA is enabled");
  }
}

async function storeChallenge(db: Db, userId: string | null, type: "registration" | "authentication", session: SessionData, expires: Date) {
  const id = randomUUID();
  await db.query(
    "insert into auth.webauthn_challenges (id, user_id, challenge_type, session_data, created_at, expires_at) values ($1, $2, $3, $4, now(), $5)",
    [id, userId, type, JSON.stringify(session), expires],
  );
  return id;
}

/** The challenge id and credential of a verify request, checked as GoTrue checks them. */
function verifyParams(params: Record<string, unknown>): { challengeId: string; credential: unknown } {
  const challengeId = params.challenge_id;
  if (challengeId !== undefined && challengeId !== null && typeof challengeId !== "string")
    throw badRequest(
      "bad_json",
      "Could not parse request body as JSON: json: cannot unmarshal into Go struct field .challenge_id of type string",
    );
  if (!challengeId) throw badRequest("validation_failed", "challenge_id is required");
  if (params.credential === undefined || params.credential === null) throw badRequest("validation_failed", "credential is required");
  if (!uuidPattern.test(challengeId)) throw badRequest("validation_failed", "challenge_id must be a valid UUID");
  return { challengeId, credential: params.credential };
}

/**
 * GoTrue's ConsumeWebAuthnChallengeByID: the row is deleted as it is read, so a challenge verifies
 * at most once (a failed verification spends it too); then its expiry is checked.
 */
async function consumeChallenge(
  pool: pg.Pool,
  id: string,
  type: "registration" | "authentication",
  userId: string | null,
): Promise<SessionData> {
  const { rows } = await pool.query<{ session_data: SessionData; expired: boolean }>(
    `delete from auth.webauthn_challenges where id = $1 and challenge_type = $2 and user_id is not distinct from $3::uuid
     returning session_data, expires_at < now() as expired`,
    [id, type, userId],
  );
  if (!rows[0]) throw badRequest("webauthn_challenge_not_found", "Challenge not found or already used");
  if (rows[0].expired) throw badRequest("webauthn_challenge_expired", "Challenge has expired");
  return rows[0].session_data;
}

function ceremonyError(error: unknown): never {
  if (error instanceof InvalidCredentialResponse) throw badRequest("webauthn_verification_failed", "Invalid credential response");
  if (error instanceof CredentialVerificationFailed) throw badRequest("webauthn_verification_failed", "Credential verification failed");
  throw error;
}

/** POST /passkeys/registration/options: creation options whose challenge belongs to the caller. */
export async function registrationOptions(pool: pg.Pool, settings: AuthSettings, caller: Caller): Promise<Record<string, unknown>> {
  if (caller.user.is_sso_user) throw unprocessable("validation_failed", "SSO users cannot register passkeys");
  await requireManagementAal(pool, caller);
  const existing = await passkeysOf(pool, caller.user.id);
  if (existing.length >= settings.maxPasskeysPerUser) throw unprocessable("too_many_passkeys", "Maximum number of passkeys reached");
  const expires = new Date(Date.now() + settings.webauthn.challengeExpirySeconds * 1000);
  const exclude = existing.map((row) => ({ id: row.credential_id, transports: [] }));
  const { options, session } = creationOptions(settings.webauthn, webauthnUser(caller.user), exclude, "passkey", expires);
  const challengeId = await storeChallenge(pool, caller.user.id, "registration", session, expires);
  return { challenge_id: challengeId, options, expires_at: Math.floor(expires.getTime() / 1000) };
}

/** POST /passkeys/registration/verify: the attestation is checked and the passkey stored. */
export async function registrationVerify(
  pool: pg.Pool,
  settings: AuthSettings,
  req: IncomingMessage,
  caller: Caller,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (caller.user.is_sso_user) throw unprocessable("validation_failed", "SSO users cannot register passkeys");
  await requireManagementAal(pool, caller);
  const { challengeId, credential } = verifyParams(params);
  const session = await consumeChallenge(pool, challengeId, "registration", caller.user.id);
  const created = await verifyRegistration(settings.webauthn, session, credential).catch(ceremonyError);
  const friendlyName = passkeyFriendlyName(created.aaguid);
  return await withTransaction(pool, async (db) => {
    await db.query("select 1 from auth.users where id = $1 for update", [caller.user.id]);
    const { rows: counted } = await db.query<{ n: number }>("select count(*)::int as n from auth.webauthn_credentials where user_id = $1", [
      caller.user.id,
    ]);
    if (counted[0].n >= settings.maxPasskeysPerUser) throw unprocessable("too_many_passkeys", "Maximum number of passkeys reached");
    const { rows } = await db.query<{ id: string; created_at: Date }>(
      `insert into auth.webauthn_credentials (id, user_id, credential_id, public_key, attestation_type, aaguid, sign_count, transports,
           backup_eligible, backed_up, friendly_name, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now(), now())
         on conflict (credential_id) do nothing returning id, created_at`,
      [
        randomUUID(),
        caller.user.id,
        created.id,
        created.publicKey,
        created.attestationType,
        created.aaguid,
        created.signCount,
        JSON.stringify(created.transports),
        created.backupEligible,
        created.backedUp,
        friendlyName,
      ],
    );
    if (!rows[0]) throw unprocessable("webauthn_credential_exists", "This credential is already registered");
    await audit(db, req, caller.user, "passkey_created", { passkey_id: rows[0].id });
    return { id: rows[0].id, friendly_name: friendlyName, created_at: rows[0].created_at.toISOString() };
  });
}

/** POST /passkeys/authentication/options: a discoverable sign-in (allowCredentials empty, any user). */
export async function authenticationOptions(pool: pg.Pool, settings: AuthSettings): Promise<Record<string, unknown>> {
  const expires = new Date(Date.now() + settings.webauthn.challengeExpirySeconds * 1000);
  const { options, session } = requestOptions(settings.webauthn, [], undefined, expires);
  const challengeId = await storeChallenge(pool, null, "authentication", session, expires);
  return { challenge_id: challengeId, options, expires_at: Math.floor(expires.getTime() / 1000) };
}

/**
 * POST /passkeys/authentication/verify: the assertion's user handle names the user, whose own
 * passkey must have made it; then a session as the password grant issues one, with amr `passkey`.
 */
export async function authenticationVerify(
  pool: pg.Pool,
  settings: AuthSettings,
  req: IncomingMessage,
  params: Record<string, unknown>,
): Promise<SessionResponse> {
  const { challengeId, credential } = verifyParams(params);
  const session = await consumeChallenge(pool, challengeId, "authentication", null);
  let identity;
  try {
    identity = assertionIdentity(credential);
  } catch (error) {
    ceremonyError(error);
  }
  const failed = () => badRequest("webauthn_verification_failed", "Credential verification failed");
  const userId = identity.userHandle ? Buffer.from(identity.userHandle, "base64url").toString("utf8") : "";
  if (!uuidPattern.test(userId)) throw failed();
  const owned = (await passkeysOf(pool, userId)).find((row) => row.credential_id.equals(identity.credentialId));
  if (!owned) throw failed();
  const checked = await verifyAssertion(settings.webauthn, session, credential, stored(owned)).catch(ceremonyError);
  const user = await findUserById(pool, userId);
  if (!user) throw failed();
  if (user.email && !user.email_confirmed_at) throw forbidden("email_not_confirmed", "Email not confirmed");
  if (user.phone && !user.phone_confirmed_at) throw forbidden("phone_not_confirmed", "Phone not confirmed");
  if (user.banned_until && user.banned_until.getTime() > Date.now()) throw forbidden("user_banned", "User is banned");
  return await withTransaction(pool, async (db) => {
    // Two assertions racing with one sign count: the row lock lets only the first one raise it.
    const { rowCount } = await db.query(
      `update auth.webauthn_credentials set sign_count = $2, backed_up = $3, last_used_at = now(), updated_at = now()
       where id = $1 and (sign_count = $4 or $2 > sign_count)`,
      [owned.id, checked.signCount, checked.backedUp, owned.sign_count],
    );
    if (!rowCount) throw failed();
    return await issueSession(db, settings, user.id, "passkey", req, { passkey_id: owned.id });
  });
}

/** GET /passkeys and GET /admin/users/{id}/passkeys: oldest first. */
export async function listPasskeys(db: Db, userId: string): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<{ item: Record<string, unknown> }>(
    `select ${passkeyJson} as item from auth.webauthn_credentials p where p.user_id = $1 order by p.created_at`,
    [userId],
  );
  return rows.map((row) => row.item);
}

const passkeyNotFound = () => notFound("validation_failed", "Passkey not found");

/** PATCH /passkeys/{id} {friendly_name}: only the caller's own passkey. */
export async function renamePasskey(
  pool: pg.Pool,
  req: IncomingMessage,
  caller: Caller,
  id: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!uuidPattern.test(id)) throw passkeyNotFound();
  const friendlyName = params.friendly_name;
  if (friendlyName !== undefined && friendlyName !== null && typeof friendlyName !== "string")
    throw badRequest(
      "bad_json",
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof friendlyName} into Go struct field PasskeyUpdateParams.friendly_name of type string`,
    );
  if (!friendlyName) throw badRequest("validation_failed", "friendly_name is required");
  if (Buffer.byteLength(friendlyName) > 120) throw badRequest("validation_failed", "friendly_name must be 120 characters or less");
  return await withTransaction(pool, async (db) => {
    const { rows } = await db.query<{ item: Record<string, unknown> }>(
      `update auth.webauthn_credentials p set friendly_name = $3, updated_at = now() where p.id = $1 and p.user_id = $2 returning ${passkeyJson} as item`,
      [id, caller.user.id, friendlyName],
    );
    if (!rows[0]) throw passkeyNotFound();
    await audit(db, req, caller.user, "passkey_updated", { passkey_id: id.toLowerCase() });
    return rows[0].item;
  });
}

/** DELETE /passkeys/{id}: only the caller's own passkey, from an aal2 session when the user has MFA. */
export async function deletePasskey(pool: pg.Pool, req: IncomingMessage, caller: Caller, id: string): Promise<void> {
  await requireManagementAal(pool, caller);
  await removePasskey(pool, req, caller.user, caller.user, id, {});
}

/** DELETE /admin/users/{id}/passkeys/{passkey_id}: the admin's audit entry names the user. */
export async function adminDeletePasskey(pool: pg.Pool, req: IncomingMessage, user: UserRow, id: string): Promise<void> {
  await removePasskey(pool, req, user, { id: "00000000-0000-0000-0000-000000000000", email: "service_role" }, id, { user_id: user.id });
}

async function removePasskey(
  pool: pg.Pool,
  req: IncomingMessage,
  owner: Pick<UserRow, "id">,
  actor: Pick<UserRow, "id" | "email">,
  id: string,
  traits: Record<string, unknown>,
): Promise<void> {
  if (!uuidPattern.test(id)) throw passkeyNotFound();
  await withTransaction(pool, async (db) => {
    const { rows } = await db.query<{ id: string }>("delete from auth.webauthn_credentials where id = $1 and user_id = $2 returning id", [
      id,
      owner.id,
    ]);
    if (!rows[0]) throw passkeyNotFound();
    await audit(db, req, actor, "passkey_deleted", { ...traits, passkey_id: rows[0].id });
  });
}

import { audit } from "./audit.ts";
import { randomUUID } from "./crypto.ts";
import { AuthError, badRequest } from "./errors.ts";
import { ExpiredChallenge, type FactorRow, loadFactor, sessionAal, upgradeSession, validChallenge, validateNewFactor } from "./factors.ts";
import type { AuthService, Call, Caller } from "./service.ts";
import { type SessionResponse, sessionTokens } from "./sessions.ts";
import { type Db, withTransaction } from "./users.ts";
import {
  CredentialVerificationFailed,
  type SessionData,
  type StoredCredential,
  creationOptions,
  requestOptions,
  verifyAssertion,
  verifyRegistration,
} from "./webauthn.ts";

// WebAuthn as an MFA factor (GoTrue's /factors routes with factor_type webauthn): enrolment makes
// an unverified factor; its first challenge answers creation options ("create"), and verifying the
// attestation stores the credential on the factor (mfa_factors.web_authn_credential). Once verified,
// a challenge answers request options ("request") for the user's WebAuthn factors, and a verified
// assertion lifts the session to aal2 with amr mfa/webauthn.

/** The credential GoTrue keeps on a factor, in the JSON form its WebAuthn library gives it. */
interface FactorCredential {
  id: string;
  publicKey: string;
  attestationType: string;
  transport: string[];
  flags: { userPresent: boolean; userVerified: boolean; backupEligible: boolean; backupState: boolean };
  authenticator: { AAGUID: string; signCount: number; cloneWarning: boolean; attachment: string };
}

interface WebAuthnFactorRow {
  id: string;
  credential: FactorCredential;
}

const stored = (credential: FactorCredential): StoredCredential => ({
  id: Buffer.from(credential.id, "base64"),
  publicKey: Buffer.from(credential.publicKey, "base64"),
  signCount: credential.authenticator.signCount,
  transports: credential.transport ?? [],
});

async function verifiedWebAuthnFactors(db: Db, userId: string): Promise<WebAuthnFactorRow[]> {
  const { rows } = await db.query<{ id: string; credential: FactorCredential }>(
    `select id, web_authn_credential as credential from auth.mfa_factors
     where user_id = $1 and factor_type = 'webauthn' and status = 'verified' and web_authn_credential is not null order by created_at`,
    [userId],
  );
  return rows;
}

/** POST /factors {factor_type: webauthn, friendly_name}: an unverified factor, no credential yet. */
export async function enrollWebAuthn(
  svc: AuthService,
  req: Call["req"],
  caller: Caller,
  friendlyName: string,
): Promise<Record<string, unknown>> {
  const id = randomUUID();
  await withTransaction(svc.pool, async (db) => {
    await db.query("select 1 from auth.users where id = $1 for update", [caller.user.id]);
    await validateNewFactor(svc, db, caller.user.id, friendlyName, await sessionAal(db, caller.sessionId));
    await db.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
       values ($1, $2, $3, 'webauthn', 'unverified', now(), now())`,
      [id, caller.user.id, friendlyName],
    );
    await audit(db, req, caller.user, "factor_in_progress", { factor_id: id, factor_type: "webauthn" });
  });
  return { id, type: "webauthn", friendly_name: friendlyName };
}

/**
 * POST /factors/{id}/challenge for a WebAuthn factor: creation options while the factor is
 * unverified (excluding the user's WebAuthn credentials), request options for the user's verified
 * WebAuthn credentials after. The session data rides on the challenge row.
 */
export async function challengeWebAuthn(
  svc: AuthService,
  req: Call["req"],
  caller: Caller,
  factor: FactorRow,
  ip: string,
): Promise<Record<string, unknown>> {
  const settings = svc.settings.webauthn;
  const existing = await verifiedWebAuthnFactors(svc.pool, caller.user.id);
  const expires = new Date(Date.now() + 300_000);
  const user = { id: caller.user.id, name: caller.user.email ?? "", displayName: caller.user.email ?? "" };
  const kind = factor.status === "verified" ? "request" : "create";
  const { options, session } =
    kind === "create"
      ? creationOptions(
          settings,
          user,
          existing.map((row) => ({ id: stored(row.credential).id, transports: ["usb", "nfc"] })),
          "factor",
          expires,
        )
      : requestOptions(
          settings,
          existing.map((row) => stored(row.credential)),
          caller.user.id,
          expires,
        );
  const id = randomUUID();
  const { rows } = await withTransaction(svc.pool, async (db) => {
    const inserted = await db.query<{ created_at: Date }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, web_authn_session_data) values ($1, $2, now(), $3::inet, $4)
       returning created_at`,
      [id, factor.id, ip, JSON.stringify(session)],
    );
    await db.query("update auth.mfa_factors set last_challenged_at = now() where id = $1", [factor.id]);
    await audit(db, req, caller.user, "challenge_created", { factor_id: factor.id, factor_status: factor.status });
    return inserted;
  });
  return {
    id,
    type: "webauthn",
    expires_at: Math.floor(rows[0].created_at.getTime() / 1000) + 300,
    webauthn: { type: kind, credential_options: { publicKey: options } },
  };
}

/** The `webauthn` member of a verify request: {type: create | request, credential_response}. */
export function webauthnParams(params: Record<string, unknown>): { type: "create" | "request"; response: unknown } {
  const webauthn = params.webauthn;
  if (webauthn === undefined || webauthn === null) throw badRequest("validation_failed", "WebAuthn config required");
  if (typeof webauthn !== "object" || Array.isArray(webauthn))
    throw badRequest(
      "bad_json",
      "Could not parse request body as JSON: json: cannot unmarshal into Go struct field VerifyFactorParams.webauthn",
    );
  const { type, credential_response: response } = webauthn as Record<string, unknown>;
  if (type !== "create" && type !== "request") throw badRequest("validation_failed", "WebAuthn type must be create or request");
  if (response === undefined || response === null) throw badRequest("validation_failed", "credential_response required");
  return { type, response };
}

const invalidResponse = () => badRequest("validation_failed", "Invalid credential_response");

/**
 * POST /factors/{id}/verify for a WebAuthn factor. A "create" response verifies the attestation and
 * stores the credential (the factor becomes verified); a "request" response verifies an assertion
 * by one of the user's verified WebAuthn credentials, whose sign count must grow. The challenge is
 * then spent, and the session reaches aal2 (amr mfa/webauthn) with a new refresh token.
 */
export async function verifyWebAuthn(
  svc: AuthService,
  req: Call["req"],
  caller: Caller & { sessionId: string },
  factorId: string,
  challengeId: string,
  params: { type: "create" | "request"; response: unknown },
  ip: string,
): Promise<SessionResponse> {
  const settings = svc.settings.webauthn;
  return await withTransaction(svc.pool, async (db) => {
    const factor = await loadFactor(db, caller.user, factorId, true);
    const challenge = await validChallenge(db, factor, challengeId || "00000000-0000-0000-0000-000000000000", ip);
    const { rows: sessions } = await db.query<{ session: SessionData | null; created_at: Date }>(
      "select web_authn_session_data as session, created_at from auth.mfa_challenges where id = $1",
      [challenge.id],
    );
    const session = sessions[0]?.session;
    if (!session) throw new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
    // A creation answers an unverified factor's challenge, an assertion a verified one's: a new
    // credential must never stand in for the enrolled one.
    if ((params.type === "create") !== (factor.status !== "verified"))
      throw new AuthError(
        500,
        "unexpected_failure",
        params.type === "create"
          ? "Unexpected failure, please check server logs for more information"
          : "Failed to validate WebAuthn MFA response",
      );
    let created: Awaited<ReturnType<typeof verifyRegistration>> | undefined;
    if (params.type === "create") {
      try {
        created = await verifyRegistration(settings, session, params.response);
      } catch (error) {
        if (error instanceof CredentialVerificationFailed) {
          // go-webauthn's error reaches GoTrue's handler unwrapped: an internal error.
          throw new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
        }
        throw invalidResponse();
      }
    } else {
      const credentials = await verifiedWebAuthnFactors(db, caller.user.id);
      const rawId =
        (params.response as { rawId?: unknown; id?: unknown } | null)?.rawId ?? (params.response as { id?: unknown } | null)?.id;
      if (typeof rawId !== "string") throw invalidResponse();
      const owner = credentials.find((row) => stored(row.credential).id.equals(Buffer.from(rawId, "base64url")));
      const failed = () => new AuthError(500, "unexpected_failure", "Failed to validate WebAuthn MFA response");
      if (!owner) throw failed();
      let checked;
      try {
        checked = await verifyAssertion(settings, session, params.response, stored(owner.credential));
      } catch (error) {
        if (error instanceof CredentialVerificationFailed) throw failed();
        throw invalidResponse();
      }
      const credential = { ...owner.credential, authenticator: { ...owner.credential.authenticator, signCount: checked.signCount } };
      credential.flags = { ...credential.flags, backupState: checked.backedUp, userVerified: checked.userVerified };
      await db.query("update auth.mfa_factors set web_authn_credential = $2, updated_at = now() where id = $1", [
        owner.id,
        JSON.stringify(credential),
      ]);
    }
    await db.query("delete from auth.mfa_challenges where id = $1", [challenge.id]);
    await audit(db, req, caller.user, "verification_attempted", {
      factor_id: factor.id,
      challenge_id: challenge.id,
      factor_type: "webauthn",
    });
    if (factor.status !== "verified") {
      if (!created) throw new AuthError(500, "unexpected_failure", "Failed to validate WebAuthn MFA response");
      const credential: FactorCredential = {
        id: created.id.toString("base64"),
        publicKey: created.publicKey.toString("base64"),
        attestationType: created.attestationType,
        transport: created.transports,
        flags: {
          userPresent: created.userPresent,
          userVerified: created.userVerified,
          backupEligible: created.backupEligible,
          backupState: created.backedUp,
        },
        authenticator: {
          AAGUID: Buffer.from(created.aaguid.replaceAll("-", ""), "hex").toString("base64"),
          signCount: created.signCount,
          cloneWarning: false,
          attachment: created.attachment,
        },
      };
      await db.query(
        "update auth.mfa_factors set status = 'verified', web_authn_credential = $2, web_authn_aaguid = $3, updated_at = now() where id = $1",
        [factor.id, JSON.stringify(credential), created.aaguid],
      );
    }
    await db.query("update auth.mfa_factors set last_webauthn_challenge_data = $2, updated_at = now() where id = $1", [
      factor.id,
      JSON.stringify({
        challenge: { id: challenge.id, factor_id: factor.id, created_at: sessions[0].created_at, ip_address: ip },
        type: params.type,
        credential_response: params.response,
      }),
    ]);
    const refreshToken = await upgradeSession(db, caller.sessionId, factor, req, caller.user);
    await db.query("delete from auth.sessions where user_id = $1 and aal < 'aal2'", [caller.user.id]);
    await db.query("delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'webauthn'", [
      caller.user.id,
    ]);
    return await sessionTokens(db, svc.settings, caller.user.id, caller.sessionId, refreshToken);
  }).catch(async (error: unknown) => {
    if (error instanceof ExpiredChallenge) await svc.pool.query("delete from auth.mfa_challenges where id = $1", [error.challengeId]);
    throw error;
  });
}

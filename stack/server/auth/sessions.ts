import type { IncomingMessage } from "node:http";
import { signJwt } from "../jwt.ts";
import { audit } from "./audit.ts";
import { badRequest } from "./errors.ts";
import { generateRefreshToken, randomUUID } from "./crypto.ts";
import type { AuthSettings } from "./settings.ts";
import { type Db, type UserRow, findUserById, userJson } from "./users.ts";

const instanceId = "00000000-0000-0000-0000-000000000000";

/** How the session was established, as GoTrue records it in mfa_amr_claims and the `amr` claim. */
export type AuthMethod =
  | "anonymous"
  | "password"
  | "otp"
  | "magiclink"
  | "email/signup"
  | "recovery"
  | "email_change"
  | "invite"
  | "web3"
  | "token_refresh"
  | "totp"
  | "mfa/phone"
  | "passkey";

/** Methods that are a second factor: a session holding one of them is aal2. */
const secondFactors = new Set(["totp", "mfa/phone", "mfa/webauthn"]);

export interface SessionResponse {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

interface AmrEntry {
  method: string;
  timestamp: number;
}

function accessToken(settings: AuthSettings, user: UserRow, sessionId: string, amr: AmrEntry[]) {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.jwtExpiry;
  const claims = {
    iss: settings.externalUrl,
    sub: user.id,
    aud: user.aud || "authenticated",
    exp,
    iat,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || "authenticated",
    aal: amr.some((entry) => secondFactors.has(entry.method)) ? "aal2" : "aal1",
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return { token: signJwt(claims), exp };
}

async function amrOf(db: Db, sessionId: string): Promise<AmrEntry[]> {
  const { rows } = await db.query<{ method: string; at: Date }>(
    "select authentication_method as method, updated_at as at from auth.mfa_amr_claims where session_id = $1 order by updated_at desc",
    [sessionId],
  );
  return rows.map((row) => ({ method: row.method, timestamp: Math.floor(row.at.getTime() / 1000) }));
}

function respond(settings: AuthSettings, user: UserRow, sessionId: string, refreshToken: string, amr: AmrEntry[]): SessionResponse {
  const { token, exp } = accessToken(settings, user, sessionId, amr);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: settings.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** A new session with its first refresh token; marks the sign-in on the user. Run inside a transaction. */
export async function issueSession(
  db: Db,
  settings: AuthSettings,
  userId: string,
  method: AuthMethod,
  req: IncomingMessage,
  traits?: Record<string, unknown>,
): Promise<SessionResponse> {
  const sessionId = randomUUID();
  const refreshToken = generateRefreshToken();
  const ip = req.socket.remoteAddress ?? "";
  // One statement (atomic on its own; foreign keys are checked at its end): sign-in time, session,
  // its amr claim, the first refresh token and the audit entry.
  const { rows } = await db.query<{ at: Date }>(
    `with signed_in as (
       update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning id, email, now() as at
     ), session as (
       insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
       select $2, id, now(), now(), 'aal1', $3, $4::inet from signed_in returning id
     ), amr as (
       insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
       select $2, now(), now(), $5, $6 from signed_in
     ), refresh as (
       insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       select $7, $8, id::text, false, now(), now(), null, $2 from signed_in
     ), logged as (
       insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
       select $7, $9, json_build_object('action', 'login', 'actor_id', id, 'actor_username', coalesce(email, ''), 'actor_via_sso', false,
         'log_type', 'account', 'traits', $10::json), now(), $11 from signed_in
     )
     select at from signed_in`,
    [
      userId,
      sessionId,
      req.headers["user-agent"] ?? null,
      /^[0-9a-f:.]+$/i.test(ip) ? ip : null,
      method,
      randomUUID(),
      instanceId,
      refreshToken,
      randomUUID(),
      JSON.stringify(traits ?? { provider: method === "web3" || method === "anonymous" ? method : "email" }),
      ip.slice(0, 64),
    ],
  );
  if (!rows[0]) throw badRequest("user_not_found", "User not found");
  const user = (await findUserById(db, userId))!;
  return respond(settings, user, sessionId, refreshToken, [{ method, timestamp: Math.floor(rows[0].at.getTime() / 1000) }]);
}

/** Tokens for an existing session, its aal and amr read from its claims (after a factor was verified). */
export async function sessionTokens(
  db: Db,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<SessionResponse> {
  const user = (await findUserById(db, userId))!;
  return respond(settings, user, sessionId, refreshToken, await amrOf(db, sessionId));
}

interface RefreshRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  session_id: string | null;
}

const notFoundMessage = "Invalid Refresh Token: Refresh Token Not Found";

/**
 * GoTrue's refresh_token grant: the presented token is revoked and a child issued. A revoked token
 * whose child is the session's active token gets that child back (the client lost the answer);
 * any other revoked token is accepted only within refresh_token_reuse_interval of its revocation,
 * after which it is reuse: the session's whole token family is revoked.
 */
export async function refreshSession(db: Db, settings: AuthSettings, presented: string, req: IncomingMessage): Promise<SessionResponse> {
  const { rows } = await db.query<RefreshRow>(
    "select id, token, user_id, revoked, updated_at, session_id from auth.refresh_tokens where token = $1 for update",
    [presented],
  );
  const current = rows[0];
  if (!current || !current.session_id) throw badRequest("refresh_token_not_found", notFoundMessage);
  const { rows: sessions } = await db.query<{ id: string; not_after: Date | null }>(
    "select id, not_after from auth.sessions where id = $1 for update",
    [current.session_id],
  );
  if (!sessions[0]) throw badRequest("refresh_token_not_found", notFoundMessage);
  if (sessions[0].not_after && sessions[0].not_after.getTime() < Date.now())
    throw badRequest("session_expired", "Invalid Refresh Token: Session Expired");
  const user = await findUserById(db, current.user_id);
  if (!user) throw badRequest("refresh_token_not_found", notFoundMessage);
  if (user.banned_until && user.banned_until.getTime() > Date.now()) throw badRequest("user_banned", "Invalid Refresh Token: User Banned");

  let issued: string | undefined;
  if (current.revoked) {
    const { rows: active } = await db.query<{ token: string; parent: string | null }>(
      "select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
      [current.session_id],
    );
    if (active[0] && active[0].parent === current.token) {
      // The client refreshed but never stored the answer: it gets the active child back.
      issued = active[0].token;
    } else if (Date.now() > current.updated_at.getTime() + settings.refreshTokenReuseInterval * 1000) {
      if (settings.refreshTokenRotation) {
        await db.query("update auth.refresh_tokens set revoked = true where session_id = $1 and revoked = false", [current.session_id]);
        await audit(db, req, user, "token_revoked");
      }
      throw badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
    }
  }
  if (!issued) {
    issued = generateRefreshToken();
    await db.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1 and revoked = false", [current.id]);
    await db.query(
      "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) values ($1, $2, $3, false, now(), now(), $4, $5)",
      [instanceId, issued, current.user_id, current.token, current.session_id],
    );
  }
  await db.query("update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1", [current.session_id]);
  await audit(db, req, user, "token_refreshed");
  return respond(settings, user, current.session_id, issued, await amrOf(db, current.session_id));
}

export type LogoutScope = "global" | "local" | "others";

export async function logout(db: Db, userId: string, sessionId: string | undefined, scope: LogoutScope): Promise<void> {
  if (scope === "local") {
    if (sessionId) await db.query("delete from auth.sessions where id = $1", [sessionId]);
  } else if (scope === "others") {
    await db.query("delete from auth.sessions where user_id = $1 and id <> $2", [userId, sessionId ?? randomUUID()]);
  } else {
    await db.query("delete from auth.sessions where user_id = $1", [userId]);
  }
}

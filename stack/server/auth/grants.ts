// The grants of POST /token that sign in with what the stack itself issued: a password, a refresh
// token, a PKCE auth code. (web3.ts and id-token.ts hold the other two; routes/token.ts picks one.)
import { AuthError, badRequest } from "./errors.ts";
import { passwordMatches } from "./crypto.ts";
import { consumeAuthCode } from "./pkce.ts";
import { readParams, stringField } from "./request.ts";
import { type AuthService, type Call, checkPasswordStrength, limit, ok } from "./service.ts";
import { type AuthMethod, issueSession, refreshSession } from "./sessions.ts";
import { findUserByEmail, isBanned, withTransaction } from "./users.ts";
import { findPhoneLogin } from "./phone.ts";

/** A password that no longer meets config.toml's rules still signs in; GoTrue says so in `weak_password`. */
function weakPasswordNotice(svc: AuthService, password: string): { weak_password?: { reasons: unknown; message: string } } {
  try {
    checkPasswordStrength(svc.settings, password);
    return {};
  } catch (error) {
    if (error instanceof AuthError && error.code === "weak_password")
      return { weak_password: { reasons: (error.extra.weak_password as { reasons: unknown }).reasons, message: error.message } };
    throw error;
  }
}

const invalidCredentials = () => badRequest("invalid_credentials", "Invalid login credentials");

/** grant_type=password: email or phone, and password. */
export async function passwordGrant(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const email = stringField(params, "email");
  const phone = stringField(params, "phone");
  const password = stringField(params, "password");
  if (email && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided on login.");
  if (!email) {
    if (!phone) throw invalidCredentials();
    const user = await findPhoneLogin(svc, svc.pool, phone);
    if (!user || !(await passwordMatches(password, user.encrypted_password))) throw invalidCredentials();
    if (isBanned(user)) throw badRequest("user_banned", "User is banned");
    if (!user.phone_confirmed_at) throw badRequest("phone_not_confirmed", "Phone not confirmed");
    const session = await issueSession(svc.pool, svc.settings, user.id, "password", call.req);
    return ok(call, { ...session, ...weakPasswordNotice(svc, password) });
  }
  if (!svc.settings.email.enabled) throw badRequest("email_provider_disabled", "Email logins are disabled");
  const user = await findUserByEmail(svc.pool, email);
  if (!user || !(await passwordMatches(password, user.encrypted_password))) throw invalidCredentials();
  if (isBanned(user)) throw badRequest("user_banned", "User is banned");
  if (!user.email_confirmed_at) throw badRequest("email_not_confirmed", "Email not confirmed");
  const session = await issueSession(svc.pool, svc.settings, user.id, "password", call.req);
  ok(call, { ...session, ...weakPasswordNotice(svc, password) });
}

/** grant_type=refresh_token: the next token of the session's family (rotation, reuse interval). */
export async function refreshGrant(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.tokenRefresh);
  const token = stringField(params, "refresh_token");
  if (!token) throw badRequest("validation_failed", "refresh_token required");
  // A reuse error revokes the token family, so the transaction must commit even when it throws.
  let failure: unknown;
  const session = await withTransaction(svc.pool, async (db) => {
    try {
      return await refreshSession(db, svc.settings, token, call.req);
    } catch (error) {
      failure = error;
      return undefined;
    }
  });
  if (!session) throw failure;
  ok(call, session);
}

const flowAmr: Record<string, AuthMethod> = {
  "email/signup": "email/signup",
  magiclink: "magiclink",
  recovery: "recovery",
  email_change: "email_change",
  invite: "invite",
};

/** grant_type=pkce: an auth code and its verifier, from a PKCE link or flow. */
export async function pkceGrant(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const authCode = stringField(params, "auth_code");
  const verifier = stringField(params, "code_verifier");
  const session = await withTransaction(svc.pool, async (db) => {
    const flow = await consumeAuthCode(db, authCode, verifier);
    return await issueSession(db, svc.settings, flow.userId, flowAmr[flow.method] ?? "otp", call.req);
  });
  ok(call, session);
}

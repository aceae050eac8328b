import { badRequest, forbidden, unprocessable } from "./errors.ts";
import { hashPassword, passwordMatches } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createEmailChange } from "./links.ts";
import { createFlowState, parseChallenge } from "./pkce.ts";
import { objectField, readParams, stringField } from "./request.ts";
import { type AuthService, type Call, checkPasswordStrength, ok, redirectTo, requireUser, validateEmail } from "./service.ts";
import { type LogoutScope, logout } from "./sessions.ts";
import { requestPhoneChange } from "./phone.ts";
import { consumeNonce, needsReauthentication } from "./reauthenticate.ts";
import { findUserByEmail, findUserById, mergeMetadata, userJson, withTransaction } from "./users.ts";

/** GET /user: the caller's user. */
export async function getUser(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  ok(call, userJson(caller.user));
}

/**
 * PUT /user: user_metadata (`data`, merged), password (other sessions are signed out, as GoTrue
 * does) and email (a change confirmed by link, on both addresses with double_confirm_changes).
 */
export async function updateUser(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  const params = await readParams(call.req);
  const { settings } = svc;
  const data = objectField(params, "data");
  const password = params.password === undefined || params.password === null ? undefined : stringField(params, "password");
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  const nonce = stringField(params, "nonce");
  if (objectField(params, "app_metadata") && caller.claims.role !== "service_role") {
    throw forbidden("not_admin", "Updating app_metadata requires admin privileges");
  }
  if (caller.user.is_anonymous && password && !emailInput) {
    throw unprocessable("validation_failed", "Updating password of an anonymous user without an email or phone is not allowed");
  }
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  const redirect = redirectTo(svc, call);

  const user = await withTransaction(svc.pool, async (db) => {
    const current = (await findUserById(db, caller.user.id, true))!;
    if (password !== undefined) {
      checkPasswordStrength(settings, password);
      if (await needsReauthentication(svc, db, caller)) {
        if (!nonce) throw badRequest("reauthentication_needed", "Password update requires reauthentication");
        await consumeNonce(svc, db, current, nonce);
      }
      if (await passwordMatches(password, current.encrypted_password)) {
        throw unprocessable("same_password", "New password should be different from the old password.");
      }
      await db.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [current.id, await hashPassword(password)]);
      await logout(db, current.id, caller.sessionId, "others");
      await audit(db, call.req, current, "user_updated_password");
    }
    if (data) {
      await db.query("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", [current.id, mergeMetadata(current.raw_user_meta_data, data)]);
    }
    if (emailInput) {
      const email = validateEmail(emailInput);
      if (email !== (current.email ?? "").toLowerCase()) {
        const taken = await findUserByEmail(db, email);
        if (taken && taken.id !== current.id) throw unprocessable("email_exists", "A user with this email address has already been registered");
        const linkContext = { db, settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) };
        if (challenge) await createFlowState(db, current.id, challenge, "email_change");
        if (settings.email.enableConfirmations || current.email) {
          await createEmailChange(linkContext, (await findUserById(db, current.id))!, email);
        } else {
          await db.query("update auth.users set email = $2, updated_at = now() where id = $1", [current.id, email]);
        }
      }
    }
    if (phone) await requestPhoneChange(svc, db, current, phone);
    if (data || emailInput || phone) await audit(db, call.req, current, "user_modified");
    return (await findUserById(db, current.id))!;
  });
  ok(call, userJson(user));
}

/** POST /logout?scope=global|local|others: 204, the chosen sessions ended. */
export async function logoutRoute(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  const scope = (call.url.searchParams.get("scope") || "global") as LogoutScope;
  if (!["global", "local", "others"].includes(scope)) throw badRequest("validation_failed", `Unsupported logout scope "${scope}"`);
  // A token without a session (minted elsewhere) ends every session of the user, as GoTrue does.
  await logout(svc.pool, caller.user.id, caller.sessionId, caller.sessionId ? scope : "global");
  await audit(svc.pool, call.req, caller.user, "logout");
  call.res.writeHead(204);
  call.res.end();
}

/** GET /settings: which providers are on, as supabase-js and dashboards read them. */
export async function settingsRoute(svc: AuthService, call: Call): Promise<void> {
  const { settings } = svc;
  const off = ["anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "x", "zoom", "web3_solana"];
  ok(call, {
    external: { ...Object.fromEntries(off.map((name) => [name, false])), email: settings.email.enabled, phone: settings.sms.enabled, web3_ethereum: settings.web3Ethereum },
    disable_signup: !settings.enableSignup,
    mailer_autoconfirm: !settings.email.enableConfirmations,
    phone_autoconfirm: !settings.sms.enableConfirmations,
    sms_provider: "twilio",
    saml_enabled: false,
  });
}

export async function health(_svc: AuthService, call: Call): Promise<void> {
  ok(call, { version: "v2.180.0", name: "GoTrue", description: "GoTrue is a user registration and authentication API" });
}

/** OAuth providers GoTrue knows; config.toml enables none of them for Cuepoint. */
const oauthProviders = ["apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab", "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion", "slack", "slack_oidc", "spotify", "twitch", "twitter", "x", "workos", "zoom"];

/** GET /authorize?provider=…: every external provider is off, so GoTrue's "Unsupported provider". */
export async function authorize(_svc: AuthService, call: Call): Promise<void> {
  throw unsupportedProvider(call.url.searchParams.get("provider") ?? "");
}

/** GoTrue's answer when an OAuth flow (sign-in or identity linking) names a provider that is off or unknown. */
export function unsupportedProvider(provider: string) {
  const reason = oauthProviders.includes(provider.toLowerCase()) ? "provider is not enabled" : `Provider ${provider} could not be found`;
  return badRequest("validation_failed", `Unsupported provider: ${reason}`);
}

/** GET|POST /callback: no OAuth flow can have started, so the state is always missing. */
export async function oauthCallback(): Promise<void> {
  throw badRequest("bad_oauth_callback", "OAuth state parameter missing");
}

import { badRequest, unprocessable } from "./errors.ts";
import { hashPassword, randomUUID } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createLink } from "./links.ts";
import { createFlowState, parseChallenge } from "./pkce.ts";
import { objectField, readParams, stringField } from "./request.ts";
import { type AuthService, type Call, checkPasswordStrength, limit, ok, redirectTo, validateEmail } from "./service.ts";
import { phoneSignup } from "./phone.ts";
import { issueSession } from "./sessions.ts";
import { findUserByEmail, findUserById, insertEmailIdentity, insertUser, isConfirmed, userJson, withTransaction } from "./users.ts";

/**
 * POST /signup. With confirmations on, the answer is the user (no session) and a confirmation
 * email; signing up again with a confirmed address answers a look-alike user so addresses cannot
 * be enumerated, and with an unconfirmed one re-sends the confirmation (GoTrue's behaviour).
 */
export async function signup(svc: AuthService, call: Call): Promise<void> {
  const { settings } = svc;
  const params = await readParams(call.req);
  const password = stringField(params, "password");
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  const data = objectField(params, "data") ?? {};
  // Neither an email nor a phone: GoTrue's route takes it as an anonymous sign-in.
  if (!emailInput && !phone) return await signupAnonymously(svc, call, data);
  if (!settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  limit(call, svc.limits.signInSignUps);
  // GoTrue's order: password, its strength, email-or-phone, PKCE parameters, then the provider.
  if (!password) throw badRequest("validation_failed", "Signup requires a valid password");
  checkPasswordStrength(settings, password);
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided on signup.");
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  if (!emailInput) {
    if (phone) return await phoneSignup(svc, call, phone, password, data);
    throw badRequest("validation_failed", "Sign up only available with email provider");
  }
  if (!settings.email.enabled) throw badRequest("email_provider_disabled", "Email signups are disabled");
  const email = validateEmail(emailInput);
  const autoconfirm = !settings.email.enableConfirmations;
  const redirect = redirectTo(svc, call);
  // Hashed before the transaction, as GoTrue does: bcrypt must not hold a connection and a lock.
  const encryptedPassword = await hashPassword(password);

  const result = await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:${email}`]);
    const existing = await findUserByEmail(db, email);
    if (existing && isConfirmed(existing)) {
      await audit(db, call.req, existing, "user_repeated_signup", { provider: "email" });
      if (autoconfirm) throw unprocessable("user_already_exists", "User already registered");
      const now = new Date().toISOString();
      const lookalike = {
        ...userJson(existing),
        id: randomUUID(),
        role: "",
        created_at: now,
        updated_at: now,
        confirmation_sent_at: now,
        user_metadata: data,
        app_metadata: { provider: "email", providers: ["email"] },
        identities: [],
      };
      for (const key of ["last_sign_in_at", "confirmed_at", "email_confirmed_at", "recovery_sent_at", "new_email", "email_change_sent_at"]) delete (lookalike as Record<string, unknown>)[key];
      return { body: lookalike };
    }
    let user = existing;
    if (!user) {
      user = await insertUser(db, {
        email,
        encryptedPassword,
        userMetadata: data,
        appMetadata: { provider: "email", providers: ["email"] },
        emailConfirmed: autoconfirm,
      });
      await insertEmailIdentity(db, user, data);
    }
    await audit(db, call.req, user, autoconfirm ? "user_signedup" : "user_confirmation_requested", { provider: "email" });
    if (autoconfirm) return { body: await issueSession(db, settings, user.id, "password", call.req) };
    if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
    await createLink({ db, settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) }, user, "signup");
    return { body: userJson((await findUserById(db, user.id))!) };
  });
  ok(call, result.body);
}

/** POST /signup with neither email nor phone: an anonymous user and session, when config.toml allows it. */
async function signupAnonymously(svc: AuthService, call: Call, data: Record<string, unknown>): Promise<void> {
  if (!svc.settings.enableAnonymousSignIns) throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
  limit(call, svc.limits.anonymousUsers);
  if (!svc.settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  const session = await withTransaction(svc.pool, async (db) => {
    const user = await insertUser(db, { email: null, encryptedPassword: "", userMetadata: data, appMetadata: {}, emailConfirmed: false, anonymous: true });
    await audit(db, call.req, user, "user_signedup", { provider: "anonymous" });
    return await issueSession(db, svc.settings, user.id, "anonymous", call.req);
  });
  ok(call, session);
}

import { randomBytes } from "node:crypto";
import { badRequest, unprocessable } from "./errors.ts";
import { hashPassword } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createEmailChange, createLink } from "./links.ts";
import { type Challenge, createFlowState, parseChallenge } from "./pkce.ts";
import { booleanField, objectField, readParams, stringField } from "./request.ts";
import { type AuthService, type Call, limit, ok, redirectTo, validateEmail } from "./service.ts";
import { smsOtp } from "./phone.ts";
import { findUserByEmail, insertEmailIdentity, insertUser, isConfirmed, withTransaction } from "./users.ts";

/**
 * POST /otp (and the older POST /magiclink) for email: a magic link to a confirmed user; a new or
 * unconfirmed address is signed up (with a random password) and gets the confirmation email,
 * unless create_user is false, which GoTrue answers with otp_disabled.
 */
export async function otp(svc: AuthService, call: Call): Promise<void> {
  const { settings } = svc;
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  const data = objectField(params, "data") ?? {};
  const createUser = booleanField(params, "create_user") ?? true;
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided");
  if (!emailInput) {
    if (phone) return await smsOtp(svc, call, params);
    throw unprocessable("validation_failed", "One of email or phone must be set");
  }
  if (!settings.email.enabled) throw unprocessable("email_provider_disabled", "Email logins are disabled");
  const email = validateEmail(emailInput);
  const redirect = redirectTo(svc, call);
  await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:${email}`]);
    let user = await findUserByEmail(db, email);
    const linkContext = { db, settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) };
    if (!user || !isConfirmed(user)) {
      if (!user && !createUser) throw unprocessable("otp_disabled", "Signups not allowed for otp");
      if (!user && !settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
      if (!user) {
        user = await insertUser(db, {
          email,
          encryptedPassword: await hashPassword(randomBytes(32).toString("base64url")),
          userMetadata: data,
          appMetadata: { provider: "email", providers: ["email"] },
          emailConfirmed: !settings.email.enableConfirmations,
        });
        await insertEmailIdentity(db, user);
      }
      if (settings.email.enableConfirmations) {
        if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
        await createLink(linkContext, user, "signup");
        return;
      }
    }
    if (challenge) await createFlowState(db, user.id, challenge, "magiclink");
    await createLink(linkContext, user, "magiclink");
  });
  ok(call, {});
}

/** POST /recover: a recovery link; an unknown address gets the same empty answer (no enumeration). */
export async function recover(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const emailInput = stringField(params, "email");
  if (!emailInput) throw unprocessable("validation_failed", "Password recovery requires an email");
  const email = validateEmail(emailInput);
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  const redirect = redirectTo(svc, call);
  await withTransaction(svc.pool, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) return;
    await audit(db, call.req, user, "user_recovery_requested");
    if (challenge) await createFlowState(db, user.id, challenge, "recovery");
    await createLink({ db, settings: svc.settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) }, user, "recovery");
  });
  ok(call, {});
}

/**
 * POST /resend {type, email}: the pending signup confirmation, or the pending email change of the
 * user with that (current) address, sent again. Nothing pending, or no such user: an empty answer.
 */
export async function resend(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const type = stringField(params, "type");
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  if (!["signup", "email_change", "sms", "phone_change"].includes(type)) throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
  if (!emailInput && type === "signup") throw badRequest("validation_failed", "Type provided requires an email address");
  if (!phone && type === "sms") throw badRequest("validation_failed", "Type provided requires a phone number");
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided.");
  if (!emailInput && !phone) throw badRequest("validation_failed", "Missing email address or phone number");
  if (!emailInput) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
  if (!svc.settings.email.enabled) throw badRequest("email_provider_disabled", "Email logins are disabled");
  const email = validateEmail(emailInput);
  const challenge: Challenge | undefined = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  const redirect = redirectTo(svc, call);
  await withTransaction(svc.pool, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) return;
    const linkContext = { db, settings: svc.settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) };
    if (type === "signup") {
      if (isConfirmed(user)) return;
      await audit(db, call.req, user, "user_confirmation_requested");
      if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
      await createLink(linkContext, user, "signup");
    } else if (type === "email_change" && user.email_change) {
      if (challenge) await createFlowState(db, user.id, challenge, "email_change");
      await createEmailChange(linkContext, user, user.email_change);
    }
  });
  ok(call, {});
}

// GoTrue's one-time sign-in and recovery routes: POST /otp (and the older /magiclink), /recover
// and /resend. Each answers an empty object whether or not the address is known.
import { badRequest, unprocessable } from "../errors.ts";
import { resendEmail, sendMagicLink, sendRecovery } from "../email-requests.ts";
import { type Challenge, parseChallenge } from "../pkce.ts";
import { smsOtp } from "../phone.ts";
import { booleanField, objectField, readParams, stringField } from "../request.ts";
import { type AuthService, type Call, type RouteGroup, limit, ok, redirectTo, validateEmail } from "../service.ts";

/** POST /otp and /magiclink: a code by SMS for a phone, else a magic link (or a signup's confirmation) by email. */
async function otp(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  const data = objectField(params, "data") ?? {};
  const createUser = booleanField(params, "create_user") ?? true;
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided");
  if (!emailInput) {
    if (phone) return ok(call, await smsOtp(svc, call.req, params));
    throw unprocessable("validation_failed", "One of email or phone must be set");
  }
  if (!svc.settings.email.enabled) throw unprocessable("email_provider_disabled", "Email logins are disabled");
  const email = validateEmail(emailInput);
  await sendMagicLink(svc, { email, challenge, redirectTo: redirectTo(svc, call), data, createUser });
  ok(call, {});
}

/** POST /recover: a recovery link. */
async function recover(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const emailInput = stringField(params, "email");
  if (!emailInput) throw unprocessable("validation_failed", "Password recovery requires an email");
  const email = validateEmail(emailInput);
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  await sendRecovery(svc, call.req, { email, challenge, redirectTo: redirectTo(svc, call) });
  ok(call, {});
}

/** POST /resend {type, email}: a pending signup confirmation or email change, sent again. */
async function resend(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.signInSignUps);
  const type = stringField(params, "type");
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  if (!["signup", "email_change", "sms", "phone_change"].includes(type))
    throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
  if (!emailInput && type === "signup") throw badRequest("validation_failed", "Type provided requires an email address");
  if (!phone && type === "sms") throw badRequest("validation_failed", "Type provided requires a phone number");
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided.");
  if (!emailInput && !phone) throw badRequest("validation_failed", "Missing email address or phone number");
  if (!emailInput) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
  if (!svc.settings.email.enabled) throw badRequest("email_provider_disabled", "Email logins are disabled");
  const email = validateEmail(emailInput);
  const challenge: Challenge | undefined = parseChallenge(
    stringField(params, "code_challenge"),
    stringField(params, "code_challenge_method"),
  );
  await resendEmail(svc, call.req, type, { email, challenge, redirectTo: redirectTo(svc, call) });
  ok(call, {});
}

export const otpRoutes: RouteGroup = {
  paths: { "/otp": { POST: otp }, "/magiclink": { POST: otp }, "/recover": { POST: recover }, "/resend": { POST: resend } },
};

// GoTrue's POST /signup: by email, by phone, or (with neither) anonymously.
import { badRequest, unprocessable } from "../errors.ts";
import { hashPassword } from "../crypto.ts";
import { parseChallenge } from "../pkce.ts";
import { phoneSignup } from "../phone.ts";
import { objectField, readParams, stringField } from "../request.ts";
import { type AuthService, type Call, type RouteGroup, checkPasswordStrength, limit, ok, redirectTo, validateEmail } from "../service.ts";
import { signUpAnonymously, signUpWithEmail } from "../signup.ts";

/** GoTrue's order of checks: password, its strength, email-or-phone, PKCE parameters, then the provider. */
async function signup(svc: AuthService, call: Call): Promise<void> {
  const { settings } = svc;
  const params = await readParams(call.req);
  const password = stringField(params, "password");
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  const data = objectField(params, "data") ?? {};
  // Neither an email nor a phone: GoTrue's route takes it as an anonymous sign-in.
  if (!emailInput && !phone) return await anonymous(svc, call, data);
  if (!settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  limit(call, svc.limits.signInSignUps);
  if (!password) throw badRequest("validation_failed", "Signup requires a valid password");
  checkPasswordStrength(settings, password);
  if (emailInput && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided on signup.");
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  if (!emailInput) return ok(call, await phoneSignup(svc, call.req, phone, password, data));
  if (!settings.email.enabled) throw badRequest("email_provider_disabled", "Email signups are disabled");
  const email = validateEmail(emailInput);
  const redirect = redirectTo(svc, call);
  const encryptedPassword = await hashPassword(password);
  ok(call, await signUpWithEmail(svc, call.req, { email, encryptedPassword, data, challenge, redirectTo: redirect }));
}

/** An anonymous user and session, when config.toml allows them. */
async function anonymous(svc: AuthService, call: Call, data: Record<string, unknown>): Promise<void> {
  if (!svc.settings.enableAnonymousSignIns) throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
  limit(call, svc.limits.anonymousUsers);
  if (!svc.settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  ok(call, await signUpAnonymously(svc, call.req, data));
}

export const signupRoutes: RouteGroup = { paths: { "/signup": { POST: signup } } };

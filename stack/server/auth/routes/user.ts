// GoTrue's /user routes: the signed-in user (GET, PUT), GET /reauthenticate for the nonce a
// sensitive change may need, and /user/identities (manual linking).
import { unsupportedProvider } from "../disabled.ts";
import { badRequest, forbidden, notFound, unprocessable } from "../errors.ts";
import { unlinkIdentity } from "../identities.ts";
import { parseChallenge } from "../pkce.ts";
import { sendReauthentication } from "../reauthenticate.ts";
import { objectField, readParams, stringField } from "../request.ts";
import { type AuthService, type Call, type Caller, type RouteGroup, methodOf, ok, redirectTo, requireUser } from "../service.ts";
import { changeUser } from "../user-changes.ts";
import { userJson } from "../users.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /user: the caller's user. */
async function getUser(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  ok(call, userJson(caller.user));
}

/** PUT /user: data (user_metadata), password, email, phone; app_metadata only for the service role. */
async function updateUser(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  const params = await readParams(call.req);
  const data = objectField(params, "data");
  const password = params.password === undefined || params.password === null ? undefined : stringField(params, "password");
  const email = stringField(params, "email");
  const phone = stringField(params, "phone");
  const nonce = stringField(params, "nonce");
  if (objectField(params, "app_metadata") && caller.claims.role !== "service_role") {
    throw forbidden("not_admin", "Updating app_metadata requires admin privileges");
  }
  if (caller.user.is_anonymous && password && !email) {
    throw unprocessable("validation_failed", "Updating password of an anonymous user without an email or phone is not allowed");
  }
  const challenge = parseChallenge(stringField(params, "code_challenge"), stringField(params, "code_challenge_method"));
  const user = await changeUser(svc, call.req, caller, {
    data,
    password,
    email,
    phone,
    nonce,
    challenge,
    redirectTo: redirectTo(svc, call),
  });
  ok(call, userJson(user));
}

/** GET /reauthenticate: the nonce, sent to the user's confirmed email, else to its confirmed phone. */
async function reauthenticate(svc: AuthService, call: Call): Promise<void> {
  const { user } = await requireUser(svc, call);
  const email = user.email ?? "";
  const phone = user.phone ?? "";
  if (!email && !phone) throw badRequest("validation_failed", "Reauthentication requires the user to have an email or a phone number");
  if (email && !user.email_confirmed_at) throw unprocessable("email_not_confirmed", "Please verify your email first.");
  if (!email && !user.phone_confirmed_at) throw unprocessable("phone_not_confirmed", "Please verify your phone first.");
  const messageId = await sendReauthentication(svc, call.req, user);
  ok(call, messageId ? { message_id: messageId } : {});
}

/** GoTrue guards /user/identities/… with authentication first, then [auth] enable_manual_linking. */
async function linkingCaller(svc: AuthService, call: Call): Promise<Caller> {
  const caller = await requireUser(svc, call);
  if (!svc.settings.enableManualLinking) throw notFound("manual_linking_disabled", "Manual linking is disabled");
  return caller;
}

/** The audience the request acts for: X-JWT-AUD, else the configured one. */
function requestAudience(call: Call): string {
  const header = call.req.headers["x-jwt-aud"];
  return (Array.isArray(header) ? header[0] : header) || "authenticated";
}

/**
 * GET /user/identities/authorize?provider=… starts linking an OAuth identity (the stack serves no
 * OAuth provider, so it ends where GoTrue ends for one that is not enabled); DELETE
 * /user/identities/{id} unlinks one of the caller's identities.
 */
async function identities(svc: AuthService, call: Call, rest: string): Promise<void> {
  const method = methodOf(call);
  if (rest === "/authorize" && (method === "GET" || method === "HEAD")) {
    await linkingCaller(svc, call);
    throw unsupportedProvider(call.url.searchParams.get("provider") ?? "");
  }
  const id = /^\/([^/]+)$/.exec(rest)?.[1];
  if (id && method === "DELETE") {
    const identityId = decodeURIComponent(id);
    const caller = await linkingCaller(svc, call);
    if (!uuidPattern.test(identityId)) throw notFound("validation_failed", "identity_id must be an UUID");
    const aud = Array.isArray(caller.claims.aud) ? caller.claims.aud[0] : caller.claims.aud;
    if (aud !== requestAudience(call)) throw forbidden("unexpected_audience", "Token audience doesn't match request audience");
    await unlinkIdentity(svc, call.req, caller.user.id, identityId);
    return ok(call, {});
  }
  // GoTrue authenticates and checks manual linking before routing below /user/identities.
  await linkingCaller(svc, call);
  throw notFound("not_found", "Not Found");
}

export const userRoutes: RouteGroup = {
  paths: { "/user": { GET: getUser, PUT: updateUser }, "/reauthenticate": { GET: reauthenticate } },
  below: { "/user/identities": identities },
};

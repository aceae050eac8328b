// GoTrue's /factors routes (MFA): enroll, challenge, verify and unenroll the caller's factors.
import { AuthError, badRequest, notFound } from "../errors.ts";
import {
  callerWithSession,
  createChallenge,
  enabled,
  enrollPhone,
  enrollTotp,
  factorType,
  loadFactor,
  requestIp,
  siteHost,
  unenrollFactor,
  uuidPattern,
  validPhone,
  verifyFactor,
} from "../factors.ts";
import { readParams, stringField } from "../request.ts";
import { challengeWebAuthn, enrollWebAuthn, verifyWebAuthn, webauthnParams } from "../webauthn-factors.ts";
import { type AuthService, type Call, type RouteGroup, methodOf, ok } from "../service.ts";

/** POST /factors {factor_type, friendly_name, issuer | phone} (webauthn: a name only) */
async function enroll(svc: AuthService, call: Call): Promise<void> {
  const caller = await callerWithSession(svc, call, "enroll a factor");
  const params = await readParams(call.req);
  const type = factorType(stringField(params, "factor_type"));
  enabled(svc, type, "enroll");
  const friendlyName = stringField(params, "friendly_name");
  if (type === "webauthn") return ok(call, await enrollWebAuthn(svc, call.req, caller, friendlyName));
  if (type === "phone") {
    const input = stringField(params, "phone");
    if (!input) throw badRequest("validation_failed", "Phone number required to enroll Phone factor");
    return ok(call, await enrollPhone(svc, call.req, caller, friendlyName, validPhone(input), input));
  }
  const issuer = stringField(params, "issuer") || siteHost(svc);
  ok(call, await enrollTotp(svc, call.req, caller, friendlyName, issuer));
}

/** POST /factors/{id}/challenge {channel: sms | whatsapp for a phone factor} */
async function challenge(svc: AuthService, call: Call, factorId: string): Promise<void> {
  const caller = await callerWithSession(svc, call, "challenge a factor");
  const params = await readParams(call.req);
  const factor = await loadFactor(svc.pool, caller.user, factorId);
  enabled(svc, factor.factor_type, "challenge");
  const ip = requestIp(call);
  if (factor.factor_type === "webauthn") return ok(call, await challengeWebAuthn(svc, call.req, caller, factor, ip));
  if (factor.factor_type === "phone") {
    const channel = stringField(params, "channel") || "sms";
    if (channel !== "sms" && channel !== "whatsapp")
      throw badRequest("validation_failed", "Invalid channel, must be one of sms or whatsapp");
  }
  ok(call, await createChallenge(svc, call.req, caller, factor, ip));
}

/** POST /factors/{id}/verify {challenge_id, code | webauthn: {type, credential_response}} */
async function verify(svc: AuthService, call: Call, factorId: string): Promise<void> {
  const caller = await callerWithSession(svc, call, "verify a factor");
  const params = await readParams(call.req);
  const challengeId = stringField(params, "challenge_id");
  const code = stringField(params, "code");
  if (challengeId && !uuidPattern.test(challengeId))
    throw badRequest("bad_json", "Could not parse request body as JSON: invalid UUID format");
  const factor = await loadFactor(svc.pool, caller.user, factorId);
  if (factor.factor_type === "webauthn") {
    enabled(svc, "webauthn", "verify");
    const webauthn = webauthnParams(params);
    return ok(call, await verifyWebAuthn(svc, call.req, caller, factor.id, challengeId, webauthn, requestIp(call)));
  }
  if (!code) throw badRequest("validation_failed", "Code needs to be non-empty");
  enabled(svc, factor.factor_type, "verify");
  ok(call, await verifyFactor(svc, call.req, caller, factorId, challengeId, code, requestIp(call)));
}

/** DELETE /factors/{id} */
async function unenroll(svc: AuthService, call: Call, factorId: string): Promise<void> {
  const caller = await callerWithSession(svc, call, "unenroll a factor");
  await unenrollFactor(svc, call.req, caller, factorId);
  ok(call, { id: factorId.toLowerCase() });
}

/** Routes below /factors. */
async function factors(svc: AuthService, call: Call, rest: string): Promise<void> {
  const method = methodOf(call);
  if (rest === "") {
    if (method === "POST") return await enroll(svc, call);
    throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
  }
  const match = /^\/([^/]+)(\/challenge|\/verify)?$/.exec(rest);
  if (!match) throw notFound("not_found", "Not Found");
  const id = decodeURIComponent(match[1]);
  if (match[2] === "/challenge" && method === "POST") return await challenge(svc, call, id);
  if (match[2] === "/verify" && method === "POST") return await verify(svc, call, id);
  if (!match[2] && method === "DELETE") return await unenroll(svc, call, id);
  throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
}

export const factorRoutes: RouteGroup = { below: { "/factors": factors } };

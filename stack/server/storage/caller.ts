import { type VerifyResult, verifyJwt } from "../jwt.ts";
import type { Caller } from "./db.ts";
import { errors } from "./errors.ts";

const anonymous: Caller = { role: "anon", claims: { role: "anon" }, authenticated: false };

/** The messages jsonwebtoken gives for each failure, which storage-api passes through. */
function jwtMessage(result: Exclude<VerifyResult, { ok: true }>): string {
  switch (result.reason) {
    case "expired":
      return "jwt expired";
    case "bad_signature":
    case "unknown_kid":
    case "key_mismatch":
      return "invalid signature";
    case "unsupported_alg":
      return "invalid algorithm";
    default:
      return "jwt malformed";
  }
}

export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; message: string };

export function checkToken(token: string): TokenCheck {
  if (!token) return { ok: false, message: "jwt must be provided" };
  const result = verifyJwt(token);
  return result.ok ? { ok: true, claims: result.claims } : { ok: false, message: jwtMessage(result) };
}

/**
 * The caller behind a request's bearer token. Routes that serve objects accept a missing or invalid
 * token as anon (storage-api's `allowInvalidJwt`); every other route refuses it with AccessDenied.
 */
export function resolveCaller(bearer: string | undefined, allowInvalid: boolean): Caller {
  const check = checkToken(bearer ?? "");
  if (!check.ok) {
    if (allowInvalid) return anonymous;
    throw errors.accessDenied(check.message);
  }
  const claims = check.claims;
  const role = typeof claims.role === "string" && claims.role ? claims.role : "anon";
  const owner = typeof claims.sub === "string" && claims.sub ? claims.sub : undefined;
  return { role, claims, owner, authenticated: true };
}

export const serviceCaller: Caller = { role: "service_role", claims: { role: "service_role" }, authenticated: true };

import { type VerifyResult, verifyJwt } from "../jwt.ts";
import type { Caller } from "./db.ts";
import { errors } from "./errors.ts";

const anonymous: Caller = { role: "anon", claims: { role: "anon" }, authenticated: false };

/** The messages jose (storage-api's JWT library) gives for each failure, which storage-api passes through. */
function jwtMessage(result: Exclude<VerifyResult, { ok: true }>): string {
  switch (result.reason) {
    case "expired":
      return '"exp" claim timestamp check failed';
    case "bad_signature":
      return "signature verification failed";
    case "unknown_kid":
    case "key_mismatch":
      return "no applicable key found in the JSON Web Key Set";
    case "unsupported_alg":
      return '"alg" (Algorithm) Header Parameter value not allowed';
    default:
      return "Invalid Compact JWS";
  }
}

export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; message: string };

export function checkToken(token: string): TokenCheck {
  // A missing token is the empty string to jose: not three dot-separated parts.
  if (!token) return { ok: false, message: "Invalid Compact JWS" };
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

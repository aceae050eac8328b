import type { IncomingHttpHeaders } from "node:http";
import { apiKeyJwt } from "../gateway.ts";
import { verifyJwt } from "../jwt.ts";

/**
 * The Authorization header the function receives: the caller's, with an `sb_…` key replaced by
 * its role's JWT; when the caller sent none, the JWT of a recognised `apikey`.
 */
export function forwardedAuthorization(headers: IncomingHttpHeaders): string | undefined {
  const given = headers.authorization;
  if (given) {
    const [scheme, token] = given.split(" ");
    const jwt = scheme === "Bearer" && token ? apiKeyJwt(token) : undefined;
    return jwt ? `Bearer ${jwt}` : given;
  }
  const apikey = typeof headers.apikey === "string" ? apiKeyJwt(headers.apikey) : undefined;
  return apikey ? `Bearer ${apikey}` : undefined;
}

/**
 * `verify_jwt`: the token must be a JWT signed with one of the project's signing keys (or the
 * legacy secret) and not expired. Returns the refusal message the CLI's edge runtime sends, or
 * undefined when the request may pass.
 */
export function jwtRefusal(authorization: string | undefined): string | undefined {
  if (!authorization) return "Error: Missing authorization header";
  const [scheme, token] = authorization.split(" ");
  if (scheme !== "Bearer") return "Error: Auth header is not 'Bearer {token}'";
  return token && verifyJwt(token).ok ? undefined : "Invalid JWT";
}

import type { IncomingHttpHeaders } from "node:http";
import { anonKey, publishableKey, secretKey, serviceRoleKey } from "../../lib/keys.ts";
import { verifyJwt } from "../jwt.ts";

/** The CLI's gateway swaps an API key for the JWT of its role before the function sees it. */
const keyJwts: Record<string, string> = {
  [anonKey]: anonKey,
  [publishableKey]: anonKey,
  [serviceRoleKey]: serviceRoleKey,
  [secretKey]: serviceRoleKey,
};

/**
 * The Authorization header the function receives: the caller's, with an `sb_…` key replaced by
 * its role's JWT; when the caller sent none, the JWT of a recognised `apikey`.
 */
export function forwardedAuthorization(headers: IncomingHttpHeaders): string | undefined {
  const given = headers.authorization;
  if (given) {
    const [scheme, token] = given.split(" ");
    return scheme === "Bearer" && token && keyJwts[token] ? `Bearer ${keyJwts[token]}` : given;
  }
  const apikey = typeof headers.apikey === "string" ? keyJwts[headers.apikey] : undefined;
  return apikey ? `Bearer ${apikey}` : undefined;
}

/**
 * `verify_jwt`: the token must be a JWT signed with the project's secret and not expired. Returns
 * the refusal message the CLI's edge runtime sends, or undefined when the request may pass.
 */
export function jwtRefusal(authorization: string | undefined): string | undefined {
  if (!authorization) return "Error: Missing authorization header";
  const [scheme, token] = authorization.split(" ");
  if (scheme !== "Bearer") return "Error: Auth header is not 'Bearer {token}'";
  return token && verifyJwt(token).ok ? undefined : "Invalid JWT";
}

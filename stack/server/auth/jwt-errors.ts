import type { VerifyFailure } from "../jwt.ts";

// The algorithms golang-jwt knows; any other alg is "unavailable" rather than "invalid".
const goJwtMethods = new Set([
  "none",
  "HS256",
  "HS384",
  "HS512",
  "RS256",
  "RS384",
  "RS512",
  "ES256",
  "ES384",
  "ES512",
  "PS256",
  "PS384",
  "PS512",
  "EdDSA",
]);

/** golang-jwt's wording for a refused token, which GoTrue passes through. */
export function goJwtReason(token: string, reason: VerifyFailure): string {
  let header: { alg?: unknown; kid?: unknown } = {};
  try {
    header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as typeof header;
  } catch {
    // malformed: the header is not read
  }
  switch (reason) {
    case "expired":
      return "token has invalid claims: token is expired";
    case "bad_signature":
      return "token signature is invalid: signature is invalid";
    case "key_mismatch":
      return "token signature is invalid: key is of invalid type";
    case "unknown_kid":
      return `token is unverifiable: error while executing keyfunc: unrecognized JWT kid ${String(header.kid)} for algorithm ${String(header.alg)}`;
    case "unsupported_alg":
      return typeof header.alg === "string" && goJwtMethods.has(header.alg)
        ? `token signature is invalid: signing method ${header.alg} is invalid`
        : "token is unverifiable: signing method (alg) is unavailable";
    default:
      return "token is malformed: could not base64 decode or JSON decode the token";
  }
}

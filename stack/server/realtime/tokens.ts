import { type Claims, verifyJwt } from "../jwt.ts";

/** A channel's access token checked as Realtime checks it; `error` is the join/shutdown reason Realtime gives. */
export type TokenCheck = { ok: true; claims: Claims; expiresInMs: number } | { ok: false; code: string; message: string };

function peekExp(token: string): number | undefined {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return claims && typeof claims === "object" && typeof (claims as Claims).exp === "number" ? (claims as Claims).exp : undefined;
  } catch {
    return undefined;
  }
}

export function checkAccessToken(token: string, nowSeconds = Math.floor(Date.now() / 1000)): TokenCheck {
  const verified = verifyJwt(token.replace(/\s/g, ""), nowSeconds);
  if (!verified.ok) {
    switch (verified.reason) {
      case "expired":
        return {
          ok: false,
          code: "InvalidJWTToken",
          message: `Token has expired ${nowSeconds - (peekExp(token) ?? nowSeconds)} seconds ago`,
        };
      case "bad_signature":
      case "unsupported_alg":
      case "unknown_kid":
      case "key_mismatch":
        return { ok: false, code: "JwtSignatureError", message: "Failed to validate JWT signature" };
      default:
        return { ok: false, code: "MalformedJWT", message: "The token provided is not a valid JWT" };
    }
  }
  const { claims } = verified;
  if (typeof claims.role !== "string" || typeof claims.exp !== "number") {
    return { ok: false, code: "InvalidJWTToken", message: "Fields `role` and `exp` are required in JWT" };
  }
  return { ok: true, claims, expiresInMs: (claims.exp - nowSeconds) * 1000 };
}

/**
 * The token a channel acts with: the join's access_token (or legacy user_token), else the socket's
 * apikey. An opaque `sb_…` key in access_token means "the apikey", as Realtime treats it.
 */
export function channelToken(payload: Record<string, unknown>, apikeyJwt: string): string {
  const given =
    typeof payload.access_token === "string"
      ? payload.access_token
      : typeof payload.user_token === "string"
        ? payload.user_token
        : undefined;
  if (!given || given.startsWith("sb_")) return apikeyJwt;
  return given;
}

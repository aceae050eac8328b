import { createHmac, timingSafeEqual } from "node:crypto";
import { jwtSecret } from "../lib/keys.ts";

/** Claims of a verified access token; `role` decides the Postgres role a request runs as. */
export type Claims = Record<string, unknown> & { role?: string; sub?: string; exp?: number };

export type VerifyResult =
  | { ok: true; claims: Claims }
  | { ok: false; reason: "malformed" | "bad_signature" | "unsupported_alg" | "expired" };

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies an HS256 JWT signed with the project's JWT secret (what GoTrue issues locally and
 * what the legacy anon/service_role keys are). `nowSeconds` is injectable for tests.
 */
export function verifyJwt(token: string, nowSeconds = Math.floor(Date.now() / 1000), secret = jwtSecret): VerifyResult {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) return { ok: false, reason: "malformed" };
  const header = decodeSegment(parts[0]);
  const claims = decodeSegment(parts[1]);
  if (!header || !claims) return { ok: false, reason: "malformed" };
  if (header.alg !== "HS256") return { ok: false, reason: "unsupported_alg" };
  const expected = createHmac("sha256", secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad_signature" };
  if (typeof claims.exp === "number" && claims.exp <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, claims: claims as Claims };
}

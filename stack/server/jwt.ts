import { createHmac, timingSafeEqual, verify } from "node:crypto";
import { loadConfig } from "../lib/config.ts";
import { jwtSecret, signHs256 } from "../lib/keys.ts";
import { loadSigningKeys, type PublicJwk, type SigningKey, signWithKey } from "../lib/signing-keys.ts";

/** Claims of a verified access token; `role` decides the Postgres role a request runs as. */
export type Claims = Record<string, unknown> & { role?: string; sub?: string; exp?: number };

/**
 * Why a token was refused. `unknown_kid`: an asymmetric token whose kid no listed key has;
 * `key_mismatch`: the kid names a key of another algorithm (e.g. HS256 "signed" with a public key).
 */
export type VerifyFailure = "malformed" | "bad_signature" | "unsupported_alg" | "expired" | "unknown_kid" | "key_mismatch";

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: VerifyFailure };

/**
 * The keys tokens are signed and verified with, as GoTrue holds them: the signing keys by kid (the
 * first signs) and the legacy HS256 secret, which keeps verifying tokens that carry no known kid.
 */
export interface Keyring {
  signing?: SigningKey;
  byKid: Map<string, SigningKey>;
  secret: string;
  /**
   * Asymmetric tokens whose signature this keyring already verified, and their claims: an ES256
   * check costs some 30 HMACs, and clients send the same access token request after request.
   * Expiry is still checked on every use.
   */
  verified: Map<string, Claims>;
}

const maxVerified = 5000;

export function createKeyring(keys: SigningKey[], secret = jwtSecret): Keyring {
  return { signing: keys[0], byKid: new Map(keys.map((key) => [key.kid, key])), secret, verified: new Map() };
}

let active: Keyring | undefined;

/** The project's keyring, read from config.toml's `[auth] signing_keys_path` on first use. */
export function keyring(): Keyring {
  active ??= createKeyring(loadSigningKeys(loadConfig()));
  return active;
}

/** The public keys `/.well-known/jwks.json` publishes (the legacy secret never appears there). */
export function publicJwks(ring = keyring()): { keys: PublicJwk[] } {
  return { keys: [...ring.byKid.values()].map((key) => key.publicJwk) };
}

const validAlgorithms = new Set(["HS256", "ES256", "RS256"]);

/**
 * Signs claims as Auth signs access tokens: with the first signing key (its alg, its kid in the
 * header), or HS256 with the legacy secret when the project has no signing keys.
 */
export function signJwt(claims: Record<string, unknown>, ring = keyring()): string {
  return ring.signing ? signWithKey(ring.signing, claims) : signHs256(claims, ring.secret);
}

const roleKeyLifetime = 10 * 365 * 24 * 60 * 60;
const roleKeys = new Map<string, string>();

/**
 * The JWT an opaque `sb_publishable_…`/`sb_secret_…` key stands for, as the CLI generates its anon
 * and service_role keys: `{iss: "supabase-demo", role}`, signed with the first signing key (valid
 * ten years) when there is one, else the given legacy HS256 key.
 */
export function roleJwt(role: "anon" | "service_role", legacy: string, ring = keyring()): string {
  if (!ring.signing) return legacy;
  const cacheKey = `${ring.signing.kid}:${role}`;
  let token = roleKeys.get(cacheKey);
  if (!token) {
    token = signJwt({ iss: "supabase-demo", role, exp: Math.floor(Date.now() / 1000) + roleKeyLifetime }, ring);
    roleKeys.set(cacheKey, token);
  }
  return token;
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function hmacMatches(secret: string, input: string, signature: Buffer): boolean {
  const expected = createHmac("sha256", secret).update(input).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

function keyMatches(key: SigningKey, input: string, signature: Buffer): boolean {
  try {
    return key.alg === "ES256"
      ? verify("sha256", Buffer.from(input), { key: key.publicKey, dsaEncoding: "ieee-p1363" }, signature)
      : verify("sha256", Buffer.from(input), key.publicKey, signature);
  } catch {
    return false;
  }
}

/**
 * Verifies a JWT as GoTrue does with signing keys configured: the alg must be HS256, ES256 or RS256
 * (never `none`); a kid that names a listed key selects that key, whose algorithm must be the
 * token's; any other HS256 token is checked against the legacy secret; any other asymmetric
 * token is refused. `nowSeconds` is injectable for tests.
 */
export function verifyJwt(token: string, nowSeconds = Math.floor(Date.now() / 1000), ring = keyring()): VerifyResult {
  const known = ring.verified.get(token);
  if (known)
    return typeof known.exp === "number" && known.exp <= nowSeconds ? { ok: false, reason: "expired" } : { ok: true, claims: known };
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) return { ok: false, reason: "malformed" };
  const header = decodeSegment(parts[0]);
  const claims = decodeSegment(parts[1]);
  if (!header || !claims) return { ok: false, reason: "malformed" };
  const alg = header.alg;
  if (typeof alg !== "string" || !validAlgorithms.has(alg)) return { ok: false, reason: "unsupported_alg" };
  const input = `${parts[0]}.${parts[1]}`;
  const signature = Buffer.from(parts[2], "base64url");
  const key = typeof header.kid === "string" ? ring.byKid.get(header.kid) : undefined;
  if (key) {
    if (key.alg !== alg) return { ok: false, reason: "key_mismatch" };
    if (!keyMatches(key, input, signature)) return { ok: false, reason: "bad_signature" };
    if (ring.verified.size >= maxVerified) ring.verified.clear();
    ring.verified.set(token, claims as Claims);
  } else if (alg === "HS256") {
    if (!hmacMatches(ring.secret, input, signature)) return { ok: false, reason: "bad_signature" };
  } else {
    return { ok: false, reason: "unknown_kid" };
  }
  if (typeof claims.exp === "number" && claims.exp <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, claims: claims as Claims };
}

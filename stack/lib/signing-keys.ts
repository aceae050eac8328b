import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject, randomUUID, sign } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { StackConfig } from "./config.ts";
import { supabaseDir } from "./paths.ts";

/**
 * JWT signing keys as `[auth] signing_keys_path` names them: a JSON array of private JWKs in the
 * shape `supabase gen signing-key` writes (ES256 on P-256, or RS256). The first key signs access
 * tokens; every key verifies. Without the setting the project signs with the legacy HS256 secret.
 */
export type SigningAlgorithm = "ES256" | "RS256";

export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** What `/.well-known/jwks.json` publishes for this key: never a private part. */
  publicJwk: PublicJwk;
}

export interface PublicJwk {
  kty: "EC" | "RSA";
  kid: string;
  use: "sig";
  key_ops: ["verify"];
  alg: SigningAlgorithm;
  ext?: boolean;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

/** STACK_AUTH_SIGNING_KEYS_PATH overrides `[auth] signing_keys_path`; empty means "none" (legacy HS256). */
export function signingKeysPath(
  config: Pick<StackConfig, "raw">,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const override = env.STACK_AUTH_SIGNING_KEYS_PATH;
  const auth = config.raw.auth;
  const configured = override ?? (auth && typeof auth === "object" ? (auth as Record<string, unknown>).signing_keys_path : undefined);
  if (typeof configured !== "string" || configured.trim() === "") return undefined;
  // As the Supabase CLI resolves it: relative to the supabase/ directory that holds config.toml.
  return path.resolve(supabaseDir, configured);
}

/** A new private JWK as `supabase gen signing-key --algorithm <alg>` writes it. */
export function generateSigningJwk(alg: SigningAlgorithm = "ES256"): JsonWebKey {
  const { privateKey } =
    alg === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  const jwk = privateKey.export({ format: "jwk" });
  return { kid: randomUUID(), use: "sig", key_ops: ["sign", "verify"], alg, ext: true, ...jwk };
}

/**
 * Creates the key file with one ES256 key when the config names one that does not exist (a fresh
 * clone: the file is gitignored). Returns the path it wrote, if any.
 */
export function ensureSigningKeys(config: Pick<StackConfig, "raw">): string | undefined {
  const file = signingKeysPath(config);
  if (!file || existsSync(file)) return undefined;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify([generateSigningJwk("ES256")], null, 2)}\n`, { mode: 0o600, flag: "wx" });
  return file;
}

class SigningKeyError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = "SigningKeyError";
  }
}

function parseKey(file: string, value: unknown, index: number): SigningKey {
  const where = `key ${index + 1}`;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new SigningKeyError(file, `${where} is not a JWK object`);
  const jwk = value as JsonWebKey & { kid?: unknown; alg?: unknown; ext?: unknown };
  if (typeof jwk.kid !== "string" || !jwk.kid) throw new SigningKeyError(file, `${where} has no "kid"`);
  if (jwk.alg !== "ES256" && jwk.alg !== "RS256")
    throw new SigningKeyError(file, `${where} ("${jwk.kid}") has alg ${JSON.stringify(jwk.alg)}; must be one of [RS256 ES256]`);
  if (jwk.alg === "ES256" && (jwk.kty !== "EC" || jwk.crv !== "P-256"))
    throw new SigningKeyError(file, `${where} ("${jwk.kid}") is ES256 but not an EC key on P-256`);
  if (jwk.alg === "RS256" && jwk.kty !== "RSA") throw new SigningKeyError(file, `${where} ("${jwk.kid}") is RS256 but not an RSA key`);
  if (typeof jwk.d !== "string")
    throw new SigningKeyError(file, `${where} ("${jwk.kid}") has no private part ("d"); the file holds private keys`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: jwk, format: "jwk" });
  } catch (error) {
    throw new SigningKeyError(file, `${where} ("${jwk.kid}") is not a valid key: ${(error as Error).message}`);
  }
  const publicKey = createPublicKey(privateKey);
  const exported = publicKey.export({ format: "jwk" });
  const publicJwk: PublicJwk = {
    kty: jwk.kty as "EC" | "RSA",
    kid: jwk.kid,
    use: "sig",
    key_ops: ["verify"],
    alg: jwk.alg,
    ...(typeof jwk.ext === "boolean" ? { ext: jwk.ext } : {}),
    ...(jwk.kty === "EC" ? { crv: exported.crv, x: exported.x, y: exported.y } : { n: exported.n, e: exported.e }),
  };
  return { kid: jwk.kid, alg: jwk.alg, privateKey, publicKey, publicJwk };
}

/** Parses a signing-keys file's text; errors name the file and the key at fault. */
export function parseSigningKeys(text: string, file = "signing keys"): SigningKey[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SigningKeyError(file, `not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw new SigningKeyError(file, "must be a JSON array of JWKs (as `supabase gen signing-key` writes)");
  if (value.length === 0) throw new SigningKeyError(file, "holds no keys");
  const keys = value.map((item, index) => parseKey(file, item, index));
  const kids = new Set(keys.map((key) => key.kid));
  if (kids.size !== keys.length) throw new SigningKeyError(file, "two keys share a kid");
  return keys;
}

/** The project's signing keys, first one signing; empty when the project is on the legacy secret. */
export function loadSigningKeys(config: Pick<StackConfig, "raw">): SigningKey[] {
  const file = signingKeysPath(config);
  if (!file) return [];
  if (!existsSync(file))
    throw new SigningKeyError(file, "not found: `npm run stack -- start` creates it, or run `supabase gen signing-key`");
  return parseSigningKeys(readFileSync(file, "utf8"), file);
}

/** A JWT signed with `key` as Auth signs access tokens: its alg and kid in the header. */
export function signWithKey(key: SigningKey, claims: Record<string, unknown>): string {
  const input = `${Buffer.from(JSON.stringify({ alg: key.alg, kid: key.kid, typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const data = Buffer.from(input);
  const signature =
    key.alg === "ES256" ? sign("sha256", data, { key: key.privateKey, dsaEncoding: "ieee-p1363" }) : sign("sha256", data, key.privateKey);
  return `${input}.${signature.toString("base64url")}`;
}

import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { jwtSecret, signHs256 } from "../../lib/keys.ts";
import { supabaseDir } from "../../lib/paths.ts";
import { ensureSigningKeys, generateSigningJwk, loadSigningKeys, parseSigningKeys, signingKeysPath } from "../../lib/signing-keys.ts";
import { createKeyring, publicJwks, roleJwt, signJwt, verifyJwt } from "../../server/jwt.ts";

const dir = mkdtempSync(path.join(tmpdir(), "signing-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const configWith = (signing_keys_path?: string) => ({ raw: { auth: signing_keys_path === undefined ? {} : { signing_keys_path } } });

describe("[auth] signing_keys_path", () => {
  test("resolves relative to supabase/, as the CLI does; unset or empty means the legacy secret", () => {
    expect(signingKeysPath(configWith("./signing_keys.json"), {})).toBe(path.join(supabaseDir, "signing_keys.json"));
    expect(signingKeysPath(configWith(), {})).toBeUndefined();
    expect(signingKeysPath(configWith("./signing_keys.json"), { STACK_AUTH_SIGNING_KEYS_PATH: "" })).toBeUndefined();
    expect(loadSigningKeys(configWith())).toEqual([]);
  });

  test("start creates one ES256 key (owner-only) when the file is missing, and never overwrites one", () => {
    const file = path.join(dir, "keys", "signing_keys.json");
    expect(ensureSigningKeys(configWith(file))).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, "utf8")) as Array<Record<string, unknown>>;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", key_ops: ["sign", "verify"], ext: true });
    expect(written[0]).toHaveProperty("d");
    expect(ensureSigningKeys(configWith(file))).toBeUndefined();
    expect(readFileSync(file, "utf8")).toBe(`${JSON.stringify(written, null, 2)}\n`);
    expect(loadSigningKeys(configWith(file)).map((key) => key.kid)).toEqual([written[0].kid]);
  });

  test("a missing file named by the config is a clear error", () => {
    expect(() => loadSigningKeys(configWith(path.join(dir, "nope.json")))).toThrow(
      /nope\.json: not found: `npm run stack -- start` creates it/,
    );
  });

  const es = generateSigningJwk("ES256");
  test.each([
    ["not JSON", "{", /not JSON/],
    ["not an array", JSON.stringify(es), /must be a JSON array of JWKs/],
    ["empty", "[]", /holds no keys/],
    ["a key without kid", JSON.stringify([{ ...es, kid: undefined }]), /key 1 has no "kid"/],
    [
      "an HS256 key",
      JSON.stringify([{ kty: "oct", kid: "h", alg: "HS256", k: "c2VjcmV0" }]),
      /alg "HS256"; must be one of \[RS256 ES256\]/,
    ],
    ["a public key only", JSON.stringify([{ ...es, d: undefined }]), /has no private part/],
    ["ES256 on the wrong curve", JSON.stringify([{ ...es, crv: "P-384" }]), /not an EC key on P-256/],
    ["a broken key", JSON.stringify([{ ...es, x: "AAAA" }]), /is not a valid key/],
    ["two keys with one kid", JSON.stringify([es, es]), /two keys share a kid/],
  ])("refuses a file that is %s", (_name, text, message) => {
    const file = path.join(dir, "bad.json");
    writeFileSync(file, text);
    expect(() => loadSigningKeys(configWith(file))).toThrow(message);
  });
});

describe("signing and verifying", () => {
  const [first, second] = [generateSigningJwk("ES256"), generateSigningJwk("RS256")];
  const ring = createKeyring(parseSigningKeys(JSON.stringify([first, second])));
  const now = 1_900_000_000;

  test("the first key signs with its alg and kid; the JWKS lists both keys' public parts only", () => {
    const token = signJwt({ sub: "u", role: "authenticated", exp: now + 60 }, ring);
    expect(JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString())).toEqual({ alg: "ES256", kid: first.kid, typ: "JWT" });
    expect(verifyJwt(token, now, ring)).toEqual({ ok: true, claims: { sub: "u", role: "authenticated", exp: now + 60 } });
    const jwks = publicJwks(ring);
    expect(jwks.keys.map((key) => [key.kid, key.alg, key.kty])).toEqual([
      [first.kid, "ES256", "EC"],
      [second.kid, "RS256", "RSA"],
    ]);
    expect(JSON.stringify(jwks)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
  });

  test("a verified token is remembered, but still refused once it has expired", () => {
    const fresh = createKeyring(parseSigningKeys(JSON.stringify([first])));
    const token = signJwt({ sub: "u", role: "authenticated", exp: now + 60 }, fresh);
    expect(verifyJwt(token, now, fresh)).toMatchObject({ ok: true });
    expect(fresh.verified.has(token)).toBe(true);
    expect(verifyJwt(token, now + 60, fresh)).toEqual({ ok: false, reason: "expired" });
    // a tampered copy is not the remembered token
    expect(verifyJwt(`${token.slice(0, -4)}AAAA`, now, fresh)).toMatchObject({ ok: false });
  });

  test("without signing keys tokens are HS256 with the legacy secret, and the JWKS is empty", () => {
    const legacy = createKeyring([]);
    const token = signJwt({ role: "anon", exp: now + 60 }, legacy);
    expect(token).toBe(signHs256({ role: "anon", exp: now + 60 }));
    expect(publicJwks(legacy)).toEqual({ keys: [] });
    expect(roleJwt("anon", "legacy-anon-key", legacy)).toBe("legacy-anon-key");
  });

  test("a kid naming a key of another algorithm is refused (RS256 header on the ES256 key)", () => {
    const rsOnly = createKeyring(parseSigningKeys(JSON.stringify([{ ...second, kid: first.kid }])));
    const token = signJwt({ role: "anon", exp: now + 60 }, rsOnly);
    expect(verifyJwt(token, now, ring)).toEqual({ ok: false, reason: "key_mismatch" });
  });

  test("an HS256 token with an unknown kid falls back to the legacy secret, as GoTrue does", () => {
    const head = Buffer.from(JSON.stringify({ alg: "HS256", kid: "legacy", typ: "JWT" })).toString("base64url");
    const body = Buffer.from(JSON.stringify({ role: "anon", exp: now + 60 })).toString("base64url");
    const unsigned = `${head}.${body}`;
    const signature = createHmac("sha256", jwtSecret).update(unsigned).digest("base64url");
    expect(verifyJwt(`${unsigned}.${signature}`, now, ring)).toMatchObject({ ok: true, claims: { role: "anon" } });
    expect(verifyJwt(`${unsigned}.${createHmac("sha256", "another-secret").update(unsigned).digest("base64url")}`, now, ring)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });
});

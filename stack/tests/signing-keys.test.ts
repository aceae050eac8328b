// Asymmetric JWT signing keys as Supabase Auth uses them (`[auth] signing_keys_path`), on the
// running stack: the published JWKS, access tokens signed with the first key's kid, and every
// service that checks a JWT (Auth, REST, Storage, Realtime on join and on an open socket,
// Functions' verify_jwt) accepting those tokens and the legacy HS256 ones while refusing alg
// none, unknown kids, algorithm confusion and expired tokens.
import { createHmac, createPublicKey, randomUUID, webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import { generateSigningJwk, loadSigningKeys, parseSigningKeys, signingKeysPath } from "../lib/signing-keys.ts";
import { apiKeyJwt } from "../server/gateway.ts";
import { createKeyring, signJwt, verifyJwt } from "../server/jwt.ts";
import { admin, createConfirmedUser, decodeJwt } from "./auth-helpers.ts";
import { apiUrl, config, publishableKey, secretKey } from "./helpers/stack.ts";
import { RawSocket } from "./realtime-helpers.ts";

const projectKeys = loadSigningKeys(config);
const ring = createKeyring(projectKeys);
const foreignRing = createKeyring(parseSigningKeys(JSON.stringify([generateSigningJwk("ES256")])));
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

let user: { id: string; email: string; password: string };
let session: { access_token: string };

beforeAll(async () => {
  user = await createConfirmedUser("signing-keys");
  const signedIn = await createClient(apiUrl, publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  }).auth.signInWithPassword(user);
  if (signedIn.error) throw signedIn.error;
  session = signedIn.data.session;
});

afterAll(async () => {
  if (user) await admin().auth.admin.deleteUser(user.id);
});

function claimsFor(overrides: Record<string, unknown> = {}) {
  return {
    sub: user.id,
    role: "authenticated",
    aud: "authenticated",
    email: user.email,
    iat: now(),
    exp: now() + 600,
    session_id: randomUUID(),
    ...overrides,
  };
}

/** An HS256 token whose HMAC key is the project's public key (as PEM): the algorithm-confusion attack. */
function confused(withKid: boolean): string {
  const key = projectKeys[0];
  const input = `${b64({ alg: "HS256", typ: "JWT", ...(withKid ? { kid: key.kid } : {}) })}.${b64(claimsFor())}`;
  const pem = key.publicKey.export({ type: "spki", format: "pem" });
  return `${input}.${createHmac("sha256", pem).update(input).digest("base64url")}`;
}

const refused: Array<[string, () => string]> = [
  ["alg none", () => `${b64({ alg: "none", typ: "JWT" })}.${b64(claimsFor())}.`],
  ["alg none with the project's kid", () => `${b64({ alg: "none", typ: "JWT", kid: projectKeys[0].kid })}.${b64(claimsFor())}.`],
  ["an unknown kid (signed by a key the project does not list)", () => signJwt(claimsFor(), foreignRing)],
  ["HS256 signed with the public key, naming its kid (algorithm confusion)", () => confused(true)],
  ["HS256 signed with the public key, no kid", () => confused(false)],
  ["an expired ES256 token", () => signJwt(claimsFor({ iat: now() - 700, exp: now() - 100 }), ring)],
  [
    "a tampered ES256 payload",
    () => {
      const [head, , signature] = signJwt(claimsFor(), ring).split(".");
      return `${head}.${b64(claimsFor({ role: "service_role" }))}.${signature}`;
    },
  ],
];

async function callAuth(token: string) {
  const response = await fetch(`${apiUrl}/auth/v1/user`, { headers: { apikey: publishableKey, Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function callRest(token: string) {
  const response = await fetch(`${apiUrl}/rest/v1/profiles?select=id&limit=1`, {
    headers: { apikey: publishableKey, Authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function callStorage(token: string) {
  const response = await fetch(`${apiUrl}/storage/v1/bucket`, { headers: { apikey: publishableKey, Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function callFunction(token: string) {
  const response = await fetch(`${apiUrl}/functions/v1/hello`, {
    method: "POST",
    headers: { apikey: publishableKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Keys" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function joinRealtime(token: string, topic = `fx-sk-${randomUUID()}`) {
  const socket = await RawSocket.open("2.0.0", publishableKey);
  socket.send(JSON.stringify(["1", "1", `realtime:${topic}`, "phx_join", { config: {}, access_token: token }]));
  const reply = await socket.next<[string, string, string, string, { status: string; response: { reason?: string } }]>(
    "join reply",
    (f) => f[1] === "1",
  );
  return { socket, topic, reply: reply[4] };
}

describe("GET /auth/v1/.well-known/jwks.json", () => {
  test("publishes every listed key's public part, with GoTrue's Cache-Control, without an apikey", async () => {
    const response = await fetch(`${apiUrl}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { keys: Array<Record<string, unknown>> };
    const file = JSON.parse(readFileSync(signingKeysPath(config)!, "utf8")) as Array<Record<string, unknown>>;
    expect(body.keys.map((key) => key.kid)).toEqual(file.map((key) => key.kid));
    for (const [index, key] of body.keys.entries()) {
      const source = file[index];
      expect(key).toMatchObject({ kty: source.kty, kid: source.kid, alg: source.alg, use: "sig", key_ops: ["verify"] });
      // never a private part
      for (const secret of ["d", "p", "q", "dp", "dq", "qi", "k"]) expect(key).not.toHaveProperty(secret);
      if (key.kty === "EC") expect(key).toMatchObject({ crv: "P-256", x: source.x, y: source.y });
      else expect(key).toMatchObject({ n: source.n, e: source.e });
      // a browser can import it for verification, as supabase-js does
      await expect(
        webcrypto.subtle.importKey("jwk", key as webcrypto.JsonWebKey, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]),
      ).resolves.toBeDefined();
    }
  });

  test("the project is on an ES256 key that npm run stack -- start created (gitignored)", () => {
    expect(projectKeys[0].alg).toBe("ES256");
    expect(readFileSync(new URL("../../.gitignore", import.meta.url), "utf8")).toMatch(/^supabase\/signing_keys\.json$/m);
  });
});

describe("access tokens", () => {
  test("are signed with the first key: its alg and kid in the header, verifiable with the published key", async () => {
    const [head, payload, signature] = session.access_token.split(".");
    expect(JSON.parse(Buffer.from(head, "base64url").toString())).toEqual({ alg: "ES256", kid: projectKeys[0].kid, typ: "JWT" });
    expect(decodeJwt(session.access_token)).toMatchObject({ sub: user.id, role: "authenticated", aal: "aal1" });
    const jwks = (await (await fetch(`${apiUrl}/auth/v1/.well-known/jwks.json`)).json()) as { keys: webcrypto.JsonWebKey[] };
    const key = await webcrypto.subtle.importKey("jwk", jwks.keys[0], { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const valid = await webcrypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      key,
      Buffer.from(signature, "base64url"),
      Buffer.from(`${head}.${payload}`),
    );
    expect(valid).toBe(true);
  });

  test("supabase-js getClaims() verifies them locally: one JWKS fetch, never GET /user", async () => {
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    const client = createClient(apiUrl, publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false, storageKey: `sk-${randomUUID()}` },
      global: { fetch: counting },
    });
    for (let i = 0; i < 3; i++) {
      const { data, error } = await client.auth.getClaims(session.access_token);
      expect(error).toBeNull();
      expect(data?.claims.sub).toBe(user.id);
    }
    expect(requests).toEqual(["/auth/v1/.well-known/jwks.json"]);
    // a forged token is refused locally too
    const forged = await client.auth.getClaims(
      signJwt(claimsFor(), createKeyring(parseSigningKeys(JSON.stringify([{ ...generateSigningJwk("ES256"), kid: projectKeys[0].kid }])))),
    );
    expect(forged.error?.message).toBe("Invalid JWT signature");
  });
});

describe("every service accepts tokens signed by the project's keys and legacy HS256 tokens", () => {
  const accepted: Array<[string, () => string]> = [
    ["the session's ES256 access token", () => session.access_token],
    ["a legacy HS256 token (the JWT secret)", () => signHs256(claimsFor({ session_id: undefined }))],
  ];

  test.each(accepted)("%s", async (_name, make) => {
    const token = make();
    expect((await callAuth(token)).body).toMatchObject({ id: user.id });
    expect(await callRest(token)).toMatchObject({ status: 200 });
    expect(await callStorage(token)).toMatchObject({ status: 200 });
    expect(await callFunction(token)).toEqual({
      status: 200,
      body: { message: "Hello Keys!", name: "Keys", user_id: user.id, role: "authenticated" },
    });
    const { socket, reply } = await joinRealtime(token);
    expect(reply.status).toBe("ok");
    socket.close();
  });

  test("a second listed key verifies too, an RS256 one included (a keyring as the stack builds it)", () => {
    const rsa = generateSigningJwk("RS256");
    const rotated = createKeyring(parseSigningKeys(JSON.stringify([generateSigningJwk("ES256"), rsa])));
    const signedByOld = signJwt(claimsFor(), createKeyring(parseSigningKeys(JSON.stringify([rsa]))));
    expect(JSON.parse(Buffer.from(signedByOld.split(".")[0], "base64url").toString())).toEqual({ alg: "RS256", kid: rsa.kid, typ: "JWT" });
    // the RS256 key is listed second: it no longer signs, but it still verifies
    expect(verifyJwt(signedByOld, now(), rotated)).toMatchObject({ ok: true, claims: { sub: user.id } });
    expect(verifyJwt(signedByOld, now(), foreignRing)).toEqual({ ok: false, reason: "unknown_kid" });
  });
});

describe("every service refuses", () => {
  test.each(refused)("%s", async (name, make) => {
    const token = make();
    const auth = await callAuth(token);
    expect(auth.status).toBe(403);
    expect(auth.body.error_code).toBe("bad_jwt");
    const rest = await callRest(token);
    expect(rest.status).toBe(401);
    expect(rest.body).toMatchObject({ code: name.includes("expired") ? "PGRST303" : "PGRST301" });
    const storage = await callStorage(token);
    expect(storage.body).toMatchObject({ statusCode: "403", code: "AccessDenied" });
    expect(await callFunction(token)).toEqual({ status: 401, body: { msg: "Invalid JWT" } });
    const { socket, reply } = await joinRealtime(token);
    expect(reply.status).toBe("error");
    expect(reply.response.reason).toMatch(
      name.includes("expired")
        ? /^InvalidJWTToken: Token has expired/
        : /^(JwtSignatureError: Failed to validate JWT signature|MalformedJWT: The token provided is not a valid JWT)$/,
    );
    socket.close();
  });

  test("Auth words each refusal as GoTrue (golang-jwt) does", async () => {
    const messages = await Promise.all(refused.slice(0, 5).map(async ([, make]) => (await callAuth(make())).body.msg));
    const prefix = "invalid JWT: unable to parse or verify signature, ";
    const foreignKid = foreignRing.signing!.kid;
    expect(messages.slice(0, 2)).toEqual([
      `${prefix}token signature is invalid: signing method none is invalid`,
      `${prefix}token signature is invalid: signing method none is invalid`,
    ]);
    expect(messages[2]).toBe(
      `${prefix}token is unverifiable: error while executing keyfunc: unrecognized JWT kid ${foreignKid} for algorithm ES256`,
    );
    expect(messages[3]).toBe(`${prefix}token signature is invalid: key is of invalid type`);
    expect(messages[4]).toBe(`${prefix}token signature is invalid: signature is invalid`);
  });

  test.each(refused.filter(([name]) => !name.includes("expired")))(
    "Realtime: %s sent as access_token on an open channel closes it",
    async (_name, make) => {
      const { socket, topic, reply } = await joinRealtime(session.access_token);
      expect(reply.status).toBe("ok");
      socket.send(JSON.stringify(["1", "2", `realtime:${topic}`, "access_token", { access_token: make() }]));
      const system = await socket.next<[string, string | null, string, string, Record<string, unknown>]>(
        "system error",
        (f) => f[3] === "system",
      );
      expect(system[4]).toMatchObject({ extension: "system", status: "error" });
      expect(String(system[4].message)).toMatch(/^(Failed to validate JWT signature|The token provided is not a valid JWT)$/);
      await socket.next("phx_close", (f: unknown[]) => f[3] === "phx_close");
      socket.close();
    },
  );

  test("Realtime: a fresh ES256 token sent on an open channel keeps it", async () => {
    const { socket, topic, reply } = await joinRealtime(session.access_token);
    expect(reply.status).toBe("ok");
    socket.send(JSON.stringify(["1", "2", `realtime:${topic}`, "access_token", { access_token: signJwt(claimsFor(), ring) }]));
    socket.send(JSON.stringify(["1", "3", `realtime:${topic}`, "broadcast", { type: "broadcast", event: "still", payload: {} }]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.json().some((f) => (f as unknown[])[3] === "system" || (f as unknown[])[3] === "phx_close")).toBe(false);
    socket.close();
  });
});

describe("publishable and secret keys with asymmetric signing", () => {
  test("sb_ keys stand for role JWTs signed with the project's key (as supabase start generates them)", async () => {
    for (const [key, role] of [
      [publishableKey, "anon"],
      [secretKey, "service_role"],
    ] as const) {
      const jwt = apiKeyJwt(key)!;
      expect(JSON.parse(Buffer.from(jwt.split(".")[0], "base64url").toString())).toEqual({
        alg: "ES256",
        kid: projectKeys[0].kid,
        typ: "JWT",
      });
      expect(verifyJwt(jwt, now(), ring)).toMatchObject({ ok: true, claims: { iss: "supabase-demo", role } });
    }
    // the Authorization the hello function receives is what the gateway forwarded
    const anon = await fetch(`${apiUrl}/functions/v1/hello`, {
      method: "POST",
      headers: { apikey: publishableKey, "Content-Type": "application/json" },
      body: '{"name":"a"}',
    });
    expect(await anon.json()).toMatchObject({ role: "anon", user_id: null });
    const service = await fetch(`${apiUrl}/functions/v1/hello`, {
      method: "POST",
      headers: { apikey: secretKey, Authorization: `Bearer ${secretKey}`, "Content-Type": "application/json" },
      body: '{"name":"s"}',
    });
    expect(await service.json()).toMatchObject({ role: "service_role" });
    // the secret key reaches the admin API; the publishable key does not
    expect(
      (await fetch(`${apiUrl}/auth/v1/admin/users?per_page=1`, { headers: { apikey: secretKey, Authorization: `Bearer ${secretKey}` } }))
        .status,
    ).toBe(200);
    expect(
      (
        await fetch(`${apiUrl}/auth/v1/admin/users?per_page=1`, {
          headers: { apikey: publishableKey, Authorization: `Bearer ${publishableKey}` },
        })
      ).status,
    ).toBe(403);
  });

  test("a token signed with the project's key is not an API key", async () => {
    const response = await fetch(`${apiUrl}/rest/v1/profiles?select=id&limit=1`, { headers: { apikey: session.access_token } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Invalid authentication credentials" });
  });
});

test("the public key in the JWKS is the one that verifies (not the private key file's other parts)", () => {
  const published = createPublicKey({ key: { ...projectKeys[0].publicJwk }, format: "jwk" });
  expect(published.export({ type: "spki", format: "der" }).equals(projectKeys[0].publicKey.export({ type: "spki", format: "der" }))).toBe(
    true,
  );
});

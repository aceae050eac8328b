// The gateway in front of the services, as Kong answers in `supabase start`: apikey checks, CORS,
// routing, and what the Auth service says about forged, expired or wrong-secret JWTs.
import { describe, expect, test } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import { anonKey, apiUrl, authFetch, client, createConfirmedUser, serviceRoleKey } from "./auth-helpers.ts";
import { publishableKey, secretKey } from "./helpers/stack.ts";

const now = () => Math.floor(Date.now() / 1000);

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${apiUrl}${path}`, { headers, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : text };
}

describe("apikey", () => {
  test("outside /auth/v1, missing, wrong, forged or wrong-secret keys: 401 with Kong's messages", async () => {
    expect(await get("/rest/v1/")).toMatchObject({ status: 401, body: { message: "No API key found in request" } });
    expect(await get("/rest/v1/", { apikey: "not-a-key" })).toMatchObject({
      status: 401,
      body: { message: "Invalid authentication credentials" },
    });
    const forged = signHs256(
      { iss: "supabase-demo", role: "service_role", exp: now() + 3600 },
      "another-secret-that-is-at-least-32-characters",
    );
    expect(await get("/rest/v1/", { apikey: forged })).toMatchObject({
      status: 401,
      body: { message: "Invalid authentication credentials" },
    });
    // A correctly signed JWT is still not one of the project's keys.
    const homemade = signHs256({ iss: "supabase-demo", role: "anon", exp: now() + 3600 });
    expect(await get("/rest/v1/", { apikey: homemade })).toMatchObject({
      status: 401,
      body: { message: "Invalid authentication credentials" },
    });
    expect(await get("/rest/v1/", { apikey: "__proto__" })).toMatchObject({ status: 401 });
    expect(await get("/rest/v1/", { apikey: "constructor" })).toMatchObject({ status: 401 });
  });

  test("/auth/v1 takes no key check (supabase start's Kong has no key-auth there): a forged key gains nothing", async () => {
    expect((await get("/auth/v1/settings")).status).toBe(200);
    const forged = signHs256(
      { iss: "supabase-demo", role: "service_role", exp: now() + 3600 },
      "another-secret-that-is-at-least-32-characters",
    );
    expect((await get("/auth/v1/settings", { apikey: forged })).status).toBe(200);
    // Not swapped for a JWT, so GoTrue still sees no bearer token for the admin API.
    expect(await get("/auth/v1/admin/users", { apikey: forged })).toMatchObject({
      status: 401,
      body: { msg: "This endpoint requires a valid Bearer token" },
    });
    expect(await get("/auth/v1/admin/users", { apikey: forged, Authorization: `Bearer ${forged}` })).toMatchObject({
      status: 403,
      body: { error_code: "bad_jwt" },
    });
  });

  test("the legacy JWT keys and the sb_ keys are accepted, in the header or the query", async () => {
    for (const key of [anonKey, serviceRoleKey, publishableKey, secretKey]) {
      expect((await get("/auth/v1/settings", { apikey: key })).status).toBe(200);
      expect((await get("/rest/v1/", { apikey: key })).status).toBe(200);
    }
    expect((await get(`/rest/v1/?apikey=${publishableKey}`)).status).toBe(200);
    expect((await get(`/auth/v1/settings?apikey=${publishableKey}`)).status).toBe(200);
    // An sb_secret key as the bearer acts as the service role.
    expect((await get("/auth/v1/admin/users?per_page=1", { apikey: secretKey, Authorization: `Bearer ${secretKey}` })).status).toBe(200);
    expect(
      (await get("/auth/v1/admin/users?per_page=1", { apikey: publishableKey, Authorization: `Bearer ${publishableKey}` })).status,
    ).toBe(403);
  });

  test("email-link verification is open (no apikey), as in Supabase", async () => {
    const response = await get("/auth/v1/verify?token=nope&type=magiclink&redirect_to=http://localhost:3000/auth/callback");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/callback#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=",
    );
  });

  test("unknown prefixes: 404 no Route matched; odd request targets do not hurt", async () => {
    expect(await get("/nothing/here", { apikey: anonKey })).toMatchObject({
      status: 404,
      body: { message: "no Route matched with those values" },
    });
    expect(await get("/auth/v1x/health", { apikey: anonKey })).toMatchObject({ status: 404 });
    expect((await get("/auth/v1/health", { apikey: anonKey })).status).toBe(200);
  });
});

describe("CORS", () => {
  test("preflight answers 200 with the asked headers; responses carry Allow-Origin *", async () => {
    const preflight = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:3000",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
    );
    const error = await authFetch("/token?grant_type=password", {
      method: "POST",
      apiVersion: true,
      body: "{}",
      headers: { Origin: "http://localhost:3000" },
    });
    expect(error.headers.get("access-control-allow-origin")).toBe("*");
    expect(error.headers.get("access-control-expose-headers")).toContain("X-Supabase-Api-Version");
    expect(error.headers.get("x-supabase-api-version")).toBe("2024-01-01");
  });
});

describe("access tokens presented to Auth", () => {
  const expectBadJwt = (response: { status: number; body: unknown }, reason: string) =>
    expect(response).toMatchObject({
      status: 403,
      body: { code: "bad_jwt", message: `invalid JWT: unable to parse or verify signature, ${reason}` },
    });

  test("forged, wrong-secret, expired, malformed, alg none", async () => {
    const user = await createConfirmedUser("jwt");
    const session = (await client().auth.signInWithPassword({ email: user.email, password: user.password })).data.session!;
    const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1], "base64url").toString()) as Record<string, unknown>;

    expect((await authFetch("/user", { bearer: session.access_token })).status).toBe(200);
    expectBadJwt(
      await authFetch("/user", { bearer: signHs256(claims, "wrong-secret-wrong-secret-wrong-secret-0"), apiVersion: true }),
      "token signature is invalid: signature is invalid",
    );
    const [head, , signature] = session.access_token.split(".");
    const elevated = `${head}.${Buffer.from(JSON.stringify({ ...claims, role: "service_role" })).toString("base64url")}.${signature}`;
    expectBadJwt(await authFetch("/user", { bearer: elevated, apiVersion: true }), "token signature is invalid: signature is invalid");
    expectBadJwt(
      await authFetch("/user", { bearer: signHs256({ ...claims, exp: now() - 10 }), apiVersion: true }),
      "token has invalid claims: token is expired",
    );
    expectBadJwt(
      await authFetch("/user", { bearer: "not.a.jwt", apiVersion: true }),
      "token is malformed: could not base64 decode or JSON decode the token",
    );
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    expectBadJwt(
      await authFetch("/user", { bearer: none, apiVersion: true }),
      "token signature is invalid: signing method none is invalid",
    );
    // The legacy (pre-2024-01-01) error shape.
    const legacy = await authFetch("/user", { bearer: "not.a.jwt" });
    expect(legacy).toMatchObject({ status: 403, body: { code: 403, error_code: "bad_jwt" } });
    expect(legacy.headers.get("x-supabase-api-version")).toBeNull();
  });

  test("no bearer, a key without sub, a deleted user", async () => {
    const noAuth = await fetch(`${apiUrl}/auth/v1/user`, { headers: { apikey: anonKey, "X-Supabase-Api-Version": "2024-01-01" } });
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toEqual({ code: "no_authorization", message: "This endpoint requires a valid Bearer token" });
    expect(await authFetch("/user", { bearer: anonKey, apiVersion: true })).toMatchObject({
      status: 403,
      body: { code: "bad_jwt", message: "invalid claim: missing sub claim" },
    });
    const user = await createConfirmedUser("deleted");
    const token = (await client().auth.signInWithPassword({ email: user.email, password: user.password })).data.session!.access_token;
    await authFetch(`/admin/users/${user.id}`, { method: "DELETE", bearer: serviceRoleKey });
    expect(await authFetch("/user", { bearer: token, apiVersion: true })).toMatchObject({
      status: 403,
      body: { code: "user_not_found", message: "User from sub claim in JWT does not exist" },
    });
  });
});

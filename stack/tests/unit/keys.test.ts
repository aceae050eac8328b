import { describe, expect, test } from "vitest";
import { anonKey, jwtSecret, serviceRoleKey, signHs256 } from "../../lib/keys.ts";
import { verifyJwt } from "../../server/jwt.ts";

// The keys `supabase start` prints for every local project; .env.local must be interchangeable.
const cliAnonKey =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0";
const cliServiceRoleKey =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU";

describe("local API keys", () => {
  test("are the Supabase CLI's well-known local keys", () => {
    expect(anonKey).toBe(cliAnonKey);
    expect(serviceRoleKey).toBe(cliServiceRoleKey);
  });

  test("verify with the local JWT secret and carry their role", () => {
    expect(verifyJwt(anonKey)).toMatchObject({ ok: true, claims: { role: "anon", iss: "supabase-demo" } });
    expect(verifyJwt(serviceRoleKey)).toMatchObject({ ok: true, claims: { role: "service_role" } });
  });
});

describe("verifyJwt", () => {
  const now = 1_800_000_000;

  test("accepts a token signed with the secret and not yet expired", () => {
    const token = signHs256({ sub: "u1", role: "authenticated", exp: now + 60 });
    expect(verifyJwt(token, now)).toEqual({ ok: true, claims: { sub: "u1", role: "authenticated", exp: now + 60 } });
  });

  test("rejects an expired token", () => {
    expect(verifyJwt(signHs256({ role: "authenticated", exp: now }), now)).toEqual({ ok: false, reason: "expired" });
  });

  test("rejects a token signed with another secret", () => {
    const forged = signHs256({ role: "service_role" }, "not-the-secret-not-the-secret-not-the-secret");
    expect(verifyJwt(forged, now)).toEqual({ ok: false, reason: "bad_signature" });
  });

  test("rejects a token whose payload was changed after signing", () => {
    const [head, , signature] = signHs256({ role: "anon" }).split(".");
    const escalated = Buffer.from(JSON.stringify({ role: "service_role" })).toString("base64url");
    expect(verifyJwt(`${head}.${escalated}.${signature}`, now)).toEqual({ ok: false, reason: "bad_signature" });
  });

  test("rejects alg=none and garbage", () => {
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"role":"service_role"}').toString("base64url")}.`;
    expect(verifyJwt(none, now)).toEqual({ ok: false, reason: "unsupported_alg" });
    for (const junk of ["", "a.b", "a.b.c.d", "!!.??.**", `${jwtSecret}.x.y`]) {
      expect(verifyJwt(junk, now).ok).toBe(false);
    }
  });
});

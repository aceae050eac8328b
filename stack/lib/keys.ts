import { createHmac } from "node:crypto";

/**
 * The Supabase CLI's well-known local credentials, so `.env.local` works the same against the
 * stack and against `supabase start`. Local development only: never a production secret.
 */
export const jwtSecret = "super-secret-jwt-token-with-at-least-32-characters-long";
export const publishableKey = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";
export const secretKey = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz";

/** The CLI's legacy API keys expire in 2032 (exp 1983812996) and carry only iss and role. */
const legacyKeyExpiry = 1983812996;

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString("base64url");
}

export function signHs256(payload: Record<string, unknown>, secret = jwtSecret): string {
  const head = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = base64url(JSON.stringify(payload));
  const signature = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${signature}`;
}

export const anonKey = signHs256({ iss: "supabase-demo", role: "anon", exp: legacyKeyExpiry });
export const serviceRoleKey = signHs256({ iss: "supabase-demo", role: "service_role", exp: legacyKeyExpiry });

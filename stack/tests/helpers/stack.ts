// Where the running stack is, for tests: URLs and keys from the same config the stack uses
// (so STACK_*_PORT overrides apply), plus ready-made supabase-js clients.
import { createClient } from "@supabase/supabase-js";
import { loadConfig } from "../../lib/config.ts";
import { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey } from "../../lib/keys.ts";
import { dbUrl } from "../../lib/postgres.ts";

export const config = loadConfig();
export const apiUrl = `http://127.0.0.1:${config.apiPort}`;
export const inboxUrl = `http://127.0.0.1:${config.inboxPort}`;
export const databaseUrl = dbUrl(config);
export { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey };

/** A fresh client per test, so sessions never leak between tests. */
export function anonClient() {
  return createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
}

export function serviceClient() {
  return createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
}

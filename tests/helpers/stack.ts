// Where the running local backend is, for the app's tests: URLs and keys from the same config the
// stack uses (so STACK_*_PORT overrides apply), ready-made supabase-js clients, and what a test
// needs to act as a signed-in user or as the database owner.
import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";
import { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey, signHs256 } from "@cuepoint/stack/keys";

export const config = loadConfig();
export const apiUrl = `http://127.0.0.1:${config.apiPort}`;
export const inboxUrl = `http://127.0.0.1:${config.inboxPort}`;
export const databaseUrl = dbUrl(config);
export { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey };

const noSession = { persistSession: false, autoRefreshToken: false };

/** A fresh client per test, so sessions never leak between tests. */
export function anonClient() {
  return createClient(apiUrl, anonKey, { auth: noSession });
}

export function serviceClient() {
  return createClient(apiUrl, serviceRoleKey, { auth: noSession });
}

/** An access token for a user, signed with the project's JWT secret as Supabase Auth signs one. */
export function userJwt(id: string, email: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ sub: id, role: "authenticated", aud: "authenticated", email, iat: now, exp: now + 3600, session_id: randomUUID() });
}

export function clientWithJwt(jwt: string): SupabaseClient {
  return createClient(apiUrl, anonKey, { auth: noSession, global: { headers: { Authorization: `Bearer ${jwt}` } } });
}

/** One statement as the database owner (bypasses RLS): fixtures and checks of what was stored. */
export async function adminQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A room's access epoch as the database has it now (its channels' topics carry it: lib/realtime/access-epoch.ts). */
/** Accounts written straight into auth.users (confirmed, email provider), as the suites that need many at once make them. */
export async function insertAuthUsers(people: { id: string; email: string }[]): Promise<void> {
  await adminQuery(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     select '00000000-0000-0000-0000-000000000000', id, 'authenticated', 'authenticated', email, '{"provider":"email"}', '{}', now(), now()
     from unnest($1::uuid[], $2::text[]) as u(id, email)`,
    [people.map((person) => person.id), people.map((person) => person.email)],
  );
}

export async function roomEpoch(roomId: string): Promise<number> {
  const rows = await adminQuery<{ access_epoch: number }>("select access_epoch from public.rooms where id = $1", [roomId]);
  return rows[0]?.access_epoch ?? 0;
}

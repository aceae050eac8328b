// Shared by the Realtime conformance suites: users with their own JWTs, supabase-js clients per
// caller and protocol version, a raw Phoenix socket for exact frames, and waiting without sleeping.
import { randomUUID } from "node:crypto";
import { type RealtimeChannel, type SupabaseClient, createClient } from "@supabase/supabase-js";
import pg from "pg";
import WebSocket from "ws";
import { signHs256 } from "../lib/keys.ts";
import { anonKey, apiUrl, databaseUrl, serviceRoleKey } from "./helpers/stack.ts";

export type Vsn = "1.0.0" | "2.0.0";

export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export function userToken(id: string, email: string, expiresInSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({
    sub: id,
    role: "authenticated",
    aud: "authenticated",
    email,
    iat: now,
    exp: now + expiresInSeconds,
    session_id: randomUUID(),
    is_anonymous: false,
  });
}

/** Inserts auth.users rows so fixtures can reference them; returns users with signed tokens. */
export async function createUsers(prefix: string, count: number): Promise<TestUser[]> {
  const users = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), email: `${prefix}-${i}-${Date.now()}@example.test` }));
  for (const user of users)
    await sql("insert into auth.users (id, email, aud, role) values ($1, $2, 'authenticated', 'authenticated')", [user.id, user.email]);
  return users.map((u) => ({ ...u, token: userToken(u.id, u.email) }));
}

export async function deleteUsers(users: TestUser[]): Promise<void> {
  if (users.length) await sql("delete from auth.users where id = any($1::uuid[])", [users.map((u) => u.id)]);
}

const clients: SupabaseClient[] = [];

/**
 * A supabase-js client as anon, a user or the service role, on a given Realtime protocol version.
 * A user's token comes from the `accessToken` option (read on every call, so a test may swap it),
 * fetched once before any channel joins, as an app's signed-in client has it.
 */
export async function realtimeClient(as: "anon" | "service" | { token: string }, vsn: Vsn = "2.0.0"): Promise<SupabaseClient> {
  const key = as === "service" ? serviceRoleKey : anonKey;
  const client = createClient(apiUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    // realtime-js' default heartbeat (25 s): a 5 s one made a loaded machine's late heartbeat reply
    // look like a dead socket, and the reconnect dropped changes; replies may take long there too
    realtime: { vsn, timeout: 60_000 } as never,
    ...(typeof as === "object" ? { accessToken: async () => as.token } : {}),
  });
  await client.realtime.setAuth();
  clients.push(client);
  return client;
}

export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels().catch(() => undefined)));
}

/**
 * Waits until `check` returns a value (not undefined/false), polling; fails after `ms` — a ceiling
 * for a busy machine, not an expectation of speed (suites using it allow 120 s per test).
 */
export async function waitFor<T>(what: string, check: () => T | undefined | false, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Subscribes and resolves with the terminal status (SUBSCRIBED, CHANNEL_ERROR…) and error. */
export function subscribe(channel: RealtimeChannel): Promise<{ status: string; error?: Error }> {
  return new Promise((resolve) => channel.subscribe((status, error) => resolve({ status, error })));
}

/** Subscribes a channel with postgres_changes and waits for "Subscribed to PostgreSQL" (or its error). */
export async function subscribeChanges(channel: RealtimeChannel): Promise<{ status: string; message: string }> {
  let system: { status: string; message: string } | undefined;
  channel.on("system", {}, (payload: { extension: string; status: string; message: string }) => {
    if (payload.extension === "postgres_changes") system = payload;
  });
  const joined = await subscribe(channel);
  if (joined.status !== "SUBSCRIBED") throw new Error(`join failed: ${joined.status} ${joined.error?.message}`);
  return await waitFor("the postgres_changes system message", () => system);
}

/** A raw Phoenix socket: exact frames in and out. */
export class RawSocket {
  readonly frames: Array<{ text?: string; binary?: Buffer }> = [];
  closed?: { code: number; reason: string };
  readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on("message", (data, isBinary) => this.frames.push(isBinary ? { binary: data as Buffer } : { text: String(data) }));
    ws.on("close", (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  static async open(vsn: string | undefined = "2.0.0", apikey: string | undefined = anonKey): Promise<RawSocket> {
    const url = new URL(`${apiUrl.replace(/^http/, "ws")}/realtime/v1/websocket`);
    if (apikey) url.searchParams.set("apikey", apikey);
    if (vsn) url.searchParams.set("vsn", vsn);
    const ws = new WebSocket(url);
    const socket = new RawSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return socket;
  }

  send(frame: string | Buffer): void {
    this.ws.send(frame);
  }

  /** The parsed JSON frames received so far. */
  json(): unknown[] {
    return this.frames.filter((f) => f.text !== undefined).map((f) => JSON.parse(f.text!));
  }

  async next<T>(what: string, match: (frame: T) => boolean): Promise<T> {
    return await waitFor(what, () => this.json().find((f) => match(f as T)) as T | undefined);
  }

  close(): void {
    this.ws.close();
  }
}

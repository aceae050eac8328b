// A listening session survives a restart of the whole backend: its state lives in Postgres, so after
// `npm run stack -- stop` and `start` the session row and its queue are as they were, the member's
// channel joins again by itself, and the host's next change reaches it as the next version.
// A private stack (own STACK_DIR, fixed private ports 6162x, 61645): run under
// `flock /tmp/cuepoint-fixed-ports.lock`.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import { packageDir } from "@cuepoint/stack/paths";
import { sessionTopic, type SessionRow } from "../../lib/sessions/types";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const stackDir = mkdtempSync(path.join(repoRoot, ".stack-session-restart-"));
const ports = { STACK_API_PORT: "61621", STACK_DB_PORT: "61622", STACK_INBOX_PORT: "61624", STACK_CHAIN_PORT: "61645" };
const apiUrl = `http://127.0.0.1:${ports.STACK_API_PORT}`;
const dbUrl = `postgresql://postgres:postgres@127.0.0.1:${ports.STACK_DB_PORT}/postgres`;
const noSession = { persistSession: false, autoRefreshToken: false };
const password = "session-restart-password";

function stack(command: "start" | "stop") {
  const result = spawnSync(process.execPath, [path.join(packageDir, "cli.ts"), command], {
    cwd: repoRoot,
    env: { ...process.env, STACK_DIR: stackDir, ...ports, STACK_DB_WATCHDOG_GRACE_MS: "600000" },
    encoding: "utf8",
    timeout: 180_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface Person {
  id: string;
  client: SupabaseClient;
}

async function person(label: string): Promise<Person> {
  const email = `${label}-${randomUUID().slice(0, 8)}@restart.cuepoint.test`;
  const admin = createClient(apiUrl, serviceRoleKey, { auth: noSession });
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  // The client refreshes its own token, as a page does: the session outlives the restart.
  const client = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: true } });
  const signedIn = await client.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  return { id: created.data.user.id, client };
}

async function waitFor(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let host: Person, listener: Person;
const roomId = randomUUID();

beforeAll(async () => {
  const started = stack("start");
  expect(started.code, started.out).toBe(0);
  [host, listener] = await Promise.all([person("restart-host"), person("restart-listener")]);
  await query(
    `with room as (insert into public.rooms (id, slug, name, owner_id, visibility) values ($1, $2, 'Restart', $3, 'gated') returning id)
     insert into public.room_gates (room_id, chain_id, contract_address, standard) select id, 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721' from room`,
    [roomId, `restart-${roomId.slice(0, 8)}`, host.id],
  );
  await query("insert into public.memberships (room_id, user_id, verified_at) values ($1, $2, now())", [roomId, listener.id]);
}, 240_000);

afterAll(() => {
  stack("stop");
  rmSync(stackDir, { recursive: true, force: true });
}, 120_000);

describe("the backend restarted mid-session", { timeout: 300_000 }, () => {
  test("the session and its queue are intact; the member's channel joins again and receives the next version", async () => {
    const [postA, postB] = (
      await query<{ id: string }>(
        "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'A', 'embed', 'https://vimeo.com/1', 300), ($1, $2, 'B', 'embed', 'https://vimeo.com/2', 300) returning id",
        [roomId, host.id],
      )
    ).map((row) => row.id);
    const started = await host.client.rpc("start_listening_session", { room_id: roomId, post_id: postA });
    expect(started.error).toBeNull();
    const session = started.data as SessionRow;
    const playing = await host.client.rpc("set_session_playback", {
      session_id: session.id,
      post_id: postA,
      position_seconds: 90,
      playing: true,
    });
    expect(playing.error).toBeNull();
    expect(
      (await listener.client.from("session_queue").insert({ session_id: session.id, post_id: postB, added_by: listener.id })).error,
    ).toBeNull();

    await listener.client.realtime.setAuth();
    const channel: RealtimeChannel = listener.client.channel(sessionTopic(roomId), { config: { private: true } });
    const got: SessionRow[] = [];
    channel.on("broadcast", { event: "session" }, (message) => got.push(message.payload as SessionRow));
    const statuses: string[] = [];
    channel.subscribe((status) => statuses.push(status));
    await waitFor("the listener joins", () => statuses.includes("SUBSCRIBED"), 20_000);
    const before = (await listener.client.from("listening_sessions").select("*").eq("id", session.id).single()).data as SessionRow;
    expect(before).toMatchObject({ version: 2, post_id: postA, position_seconds: 90, playing: true, host_id: host.id });

    const stopped = stack("stop");
    expect(stopped.code, stopped.out).toBe(0);
    await waitFor("the channel notices", () => channel.state !== "joined", 30_000);
    const restarted = stack("start");
    expect(restarted.code, restarted.out).toBe(0);

    const after = await listener.client.from("listening_sessions").select("*").eq("id", session.id).single();
    expect(after.error).toBeNull();
    expect(after.data).toEqual(before);
    const queue = await listener.client.from("session_queue").select("post_id, status, added_by").eq("session_id", session.id);
    expect(queue.data).toEqual([{ post_id: postB, status: "suggested", added_by: listener.id }]);

    // realtime-js reconnects and joins the channel again on its own (its backoff: up to 10 s a try).
    await waitFor("the channel joins again", () => channel.state === "joined", 90_000);
    const seek = await host.client.rpc("set_session_playback", {
      session_id: session.id,
      post_id: postA,
      position_seconds: 120,
      playing: true,
    });
    expect(seek.error).toBeNull();
    await waitFor("the next version arrives", () => got.some((row) => row.version === 3));
    expect(got.find((row) => row.version === 3)).toMatchObject({ id: session.id, position_seconds: 120, playing: true, host_id: host.id });
    await listener.client.removeAllChannels();
  });
});

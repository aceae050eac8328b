// Realtime under faults, on a private stack (own STACK_DIR and ports) so the other suites' stack is
// never disturbed: Postgres killed with SIGKILL while clients are subscribed, and a full stack
// restart. In both, the subscribed supabase-js client gets changes again with no action but waiting,
// and Broadcast from the database loses no message committed once the channel is (re)joined.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type SupabaseClient, createClient } from "@supabase/supabase-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anonKey } from "../lib/keys.ts";
import { clusterDir } from "../lib/cluster-dir.ts";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const stackDir = mkdtempSync(path.join(repoRoot, ".stack-rt-faults-"));
const ports = { STACK_API_PORT: "63421", STACK_DB_PORT: "63422", STACK_INBOX_PORT: "63424", STACK_CHAIN_PORT: "63545" };
const dbUrl = `postgresql://postgres:postgres@127.0.0.1:${ports.STACK_DB_PORT}/postgres`;
const apiUrl = `http://127.0.0.1:${ports.STACK_API_PORT}`;

function stack(command: string) {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "stack", "cli.ts"), command], {
    cwd: repoRoot,
    env: { ...process.env, STACK_DIR: stackDir, ...ports },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query(text);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const apiLog = () => readFileSync(path.join(stackDir, "logs", "api.log"), "utf8");
let client: SupabaseClient;
const received: string[] = [];
/** Broadcasts from the database heard on the public channel `fx-rtb-faults`, by their `n`. */
const heard: number[] = [];
const broadcastStatuses: string[] = [];

/** Sends `n` from the database (a public message) on a fresh connection; true when it committed. */
async function sendFromDatabase(n: number): Promise<boolean> {
  try {
    await sql(`select realtime.send(jsonb_build_object('n', ${n}), 'tick', 'fx-rtb-faults', false)`);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Inserts a row every 300 ms (errors ignored while the database is away) until the client has received it. */
async function insertUntilReceived(label: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const body = `${label}-${attempt}`;
    await sql(`insert into public.fx_rt_faults (body) values ('${body}')`).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const got = received.find((b) => b.startsWith(`${label}-`));
    if (got) return got;
  }
  throw new Error(`no ${label} change was delivered within ${timeoutMs / 1000} s`);
}

beforeAll(async () => {
  const started = stack("start");
  if (started.code !== 0) throw new Error(started.out);
  // under RLS, so the per-subscriber check must also find its way back to the restarted database
  await sql(`create table public.fx_rt_faults (id bigint generated always as identity primary key, body text not null);
             alter table public.fx_rt_faults enable row level security;
             create policy fx_rt_faults_read on public.fx_rt_faults for select to anon using (body not like 'hidden%');
             alter publication supabase_realtime add table public.fx_rt_faults;`);
  client = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const subscribed = new Promise<void>((resolve) => {
    client
      .channel("fx-rt-faults")
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "fx_rt_faults" }, (c) =>
        received.push((c.new as { body: string }).body),
      )
      .on("system", {}, (m: { extension: string; status: string }) => {
        if (m.extension === "postgres_changes" && m.status === "ok") resolve();
      })
      .subscribe();
  });
  await subscribed;
  await new Promise<void>((resolve) => {
    client
      .channel("fx-rtb-faults")
      .on("broadcast", { event: "tick" }, ({ payload }) => heard.push((payload as { n: number }).n))
      .subscribe((status) => {
        broadcastStatuses.push(status);
        if (status === "SUBSCRIBED") resolve();
      });
  });
}, 180_000);

afterAll(async () => {
  await client?.removeAllChannels();
  stack("stop");
  rmSync(stackDir, { recursive: true, force: true });
});

describe("Realtime faults", () => {
  test("Postgres killed with SIGKILL: the stack says so, brings it back, and subscribers get changes again", async () => {
    expect(await insertUntilReceived("before")).toMatch(/^before-\d+$/);
    const pid = Number(readFileSync(path.join(clusterDir(stackDir), "data", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, "SIGKILL");
    expect(await insertUntilReceived("after-kill")).toMatch(/^after-kill-\d+$/);
    const log = apiLog();
    expect(log).toMatch(
      new RegExp(`\\[db\\] PostgreSQL \\(pid ${pid}\\) is not running: it crashed or was killed\\. Restarting it in \\d+ s…`),
    );
    expect(log).toMatch(/\[db\] PostgreSQL is back \(pid \d+\) after [\d.]+ s/);
    expect(log).toContain("[realtime] lost the replication stream");
    expect(log).toMatch(/\[realtime\] replication stream is back after [\d.]+ s/);
  }, 90_000);

  test("Broadcast from the database across a Postgres kill: every committed message arrives, once", async () => {
    const committed: number[] = [];
    let killed = false;
    let committedAfterKill = 0;
    let n = 1000;
    const writer = (async () => {
      while (committedAfterKill < 15) {
        const sent = n++;
        if (await sendFromDatabase(sent)) {
          committed.push(sent);
          if (killed) committedAfterKill++;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await until("messages before the kill", () => committed.length >= 5);
    const pid = Number(readFileSync(path.join(clusterDir(stackDir), "data", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, "SIGKILL");
    killed = true;
    await writer;
    await until("every committed message", () => committed.every((m) => heard.includes(m)));
    const counts = new Map<number, number>();
    for (const m of heard) counts.set(m, (counts.get(m) ?? 0) + 1);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(apiLog()).toMatch(/\[realtime\] broadcast stream is back after [\d.]+ s/);
  }, 120_000);

  test("a full stack restart: realtime-js reconnects and rejoins on its own", async () => {
    expect(stack("stop").code).toBe(0);
    const restarted = stack("start");
    expect(restarted.code).toBe(0);
    expect(await insertUntilReceived("after-restart")).toMatch(/^after-restart-\d+$/);
    // the broadcast channel has rejoined: whatever the database sends from then on arrives
    await until("the broadcast channel rejoined", () => broadcastStatuses.filter((s) => s === "SUBSCRIBED").length >= 2);
    const committed: number[] = [];
    for (let m = 5000; m < 5010; m++) if (await sendFromDatabase(m)) committed.push(m);
    expect(committed).toHaveLength(10);
    await until("the messages sent after the rejoin", () => committed.every((m) => heard.includes(m)));
  }, 120_000);
});

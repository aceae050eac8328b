// Realtime figures against a running stack (STACK_* env, as `npm run bench:stack` sets it):
//  - postgres_changes latency, commit → delivery, with 100 clients subscribed as 100 different
//    users to a table under RLS (every change is checked against every subscriber's claims);
//  - broadcast round-trip between two clients (A sends, B echoes, A receives).
// The clients run in this process, a separate process from the stack's API server.
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { type SupabaseClient, createClient } from "@supabase/supabase-js";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { anonKey, signHs256 } from "../lib/keys.ts";
import { dbUrl } from "../lib/postgres.ts";

const subscribers = Number(process.env.BENCH_RT_SUBSCRIBERS ?? 100);
const changes = Number(process.env.BENCH_RT_CHANGES ?? 50);
const roundTrips = Number(process.env.BENCH_RT_ROUNDTRIPS ?? 300);
const goalMs = 100;

const config = loadConfig();
const apiUrl = `http://127.0.0.1:${config.apiPort}`;
const db = new pg.Client({ connectionString: dbUrl(config) });
await db.connect();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const clients: SupabaseClient[] = [];

async function client(token?: string): Promise<SupabaseClient> {
  const c = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(token ? { accessToken: async () => token } : {}),
  });
  await c.realtime.setAuth();
  clients.push(c);
  return c;
}

const users = Array.from({ length: subscribers }, () => randomUUID());
async function setUp(): Promise<void> {
  await db.query(`
    drop table if exists public.fx_rt_bench, public.fx_rt_bench_members;
    create table public.fx_rt_bench_members (user_id uuid primary key);
    create table public.fx_rt_bench (id bigint generated always as identity primary key, body text not null);
    alter table public.fx_rt_bench enable row level security;
    create policy fx_rt_bench_members_read on public.fx_rt_bench for select to authenticated
      using (exists (select 1 from public.fx_rt_bench_members m where m.user_id = (select auth.uid())));
    alter publication supabase_realtime add table public.fx_rt_bench;`);
  await db.query("insert into public.fx_rt_bench_members (user_id) select unnest($1::uuid[])", [users]);
}

async function tearDown(): Promise<void> {
  await Promise.allSettled(clients.map((c) => c.removeAllChannels()));
  await db.query("drop table if exists public.fx_rt_bench, public.fx_rt_bench_members");
  await db.end();
}

async function changesLatency(): Promise<number[]> {
  const samples: number[] = [];
  const pending = new Map<string, { committedAt: number; left: number; done: () => void }>();
  await Promise.all(
    users.map(async (sub) => {
      const now = Math.floor(Date.now() / 1000);
      const token = signHs256({ sub, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600, email: `${sub}@bench.test` });
      const c = await client(token);
      await new Promise<void>((resolve, reject) => {
        c.channel(`bench-changes-${sub}`)
          .on("postgres_changes", { event: "INSERT", schema: "public", table: "fx_rt_bench" }, (change) => {
            const at = performance.now();
            const entry = pending.get((change.new as { body: string }).body);
            if (!entry) return;
            samples.push(at - entry.committedAt);
            if (--entry.left === 0) entry.done();
          })
          .on("system", {}, (m: { extension: string; status: string; message: string }) => {
            if (m.extension !== "postgres_changes") return;
            if (m.status === "ok") resolve();
            else reject(new Error(m.message));
          })
          .subscribe();
      });
    }),
  );
  for (let i = 0; i < changes; i++) {
    const body = `change-${i}`;
    // From just before the autocommit INSERT is sent: an upper bound on commit → delivery.
    const delivered = new Promise<void>((done) => pending.set(body, { committedAt: performance.now(), left: subscribers, done }));
    await db.query("insert into public.fx_rt_bench (body) values ($1)", [body]);
    await Promise.race([delivered, new Promise((r) => setTimeout(r, 5000))]);
    await new Promise((r) => setTimeout(r, 20));
  }
  const expected = changes * subscribers;
  if (samples.length !== expected) console.log(`  (only ${samples.length} of ${expected} deliveries arrived)`);
  return samples;
}

async function broadcastRoundTrips(): Promise<number[]> {
  const [a, b] = [await client(), await client()];
  const samples: number[] = [];
  let waiting: ((at: number) => void) | undefined;
  const echo = b
    .channel("bench-echo")
    .on("broadcast", { event: "ping" }, ({ payload }) => void echo.send({ type: "broadcast", event: "pong", payload }));
  const origin = a.channel("bench-echo").on("broadcast", { event: "pong" }, () => waiting?.(performance.now()));
  for (const channel of [echo, origin]) await new Promise<void>((resolve) => channel.subscribe((s) => s === "SUBSCRIBED" && resolve()));
  for (let i = 0; i < roundTrips; i++) {
    const back = new Promise<number>((resolve) => (waiting = resolve));
    const sentAt = performance.now();
    await origin.send({ type: "broadcast", event: "ping", payload: { i } });
    samples.push((await back) - sentAt);
  }
  return samples;
}

try {
  await setUp();
  const latency = await changesLatency();
  const p99 = percentile(latency, 99);
  console.log(
    `postgres_changes, commit → delivery, ${subscribers} clients as ${subscribers} users under RLS (${changes} inserts, ${latency.length} deliveries):`,
  );
  console.log(
    `  p50 ${fmt(percentile(latency, 50))}   p99 ${fmt(p99)}   max ${fmt(Math.max(...latency))}   (goal p99 < ${goalMs} ms: ${p99 < goalMs ? "met" : "NOT met"})`,
  );
  console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores while measuring)`);
  const trips = await broadcastRoundTrips();
  console.log(`broadcast round-trip, client A → B → A (${trips.length} round trips):`);
  console.log(`  p50 ${fmt(percentile(trips, 50))}   p99 ${fmt(percentile(trips, 99))}`);
} finally {
  await tearDown();
}
process.exit(0);

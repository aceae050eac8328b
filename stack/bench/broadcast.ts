// Broadcast from the database against a running stack (STACK_* env, as `npm run bench:stack` sets
// it; `npm run bench:stack -- broadcast` runs only this):
//  - commit → delivery of realtime.send to one topic's private channel, joined by 1,000 sockets as
//    1,000 different users (each let in by the realtime.messages policy when it joined);
//  - the database's CPU per message with 100 and with 1,000 of them joined (it should not grow:
//    delivery asks the database nothing);
//  - for comparison, the same 1,000 users through postgres_changes on a table under RLS, where
//    every change is checked against every subscriber.
// The sockets speak Phoenix vsn 2.0.0 as realtime-js does, from this process (not the API's).
import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import WebSocket from "ws";
import { loadConfig } from "../lib/config.ts";
import { anonKey, signHs256 } from "../lib/keys.ts";
import { dbDir } from "../lib/paths.ts";
import { dbUrl } from "../lib/postgres.ts";

const total = Number(process.env.BENCH_BC_SUBSCRIBERS ?? 1000);
const few = Math.min(100, total);
const messages = Number(process.env.BENCH_BC_MESSAGES ?? 200);
const changes = Number(process.env.BENCH_BC_CHANGES ?? 30);
const topic = "bench-room:1";
const goalMs = 50;

const config = loadConfig();
const wsUrl = `ws://127.0.0.1:${config.apiPort}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`;
const db = new pg.Client({ connectionString: dbUrl(config) });
await db.connect();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** CPU seconds used so far by the database: the postmaster and its processes (live ones from schedstat, in ns; exited ones from the postmaster's children totals). */
const postmasterPid = Number(readFileSync(path.join(dbDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
const ticks = 100;
function databaseCpuSeconds(): number {
  let seconds = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry);
      if (pid !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      seconds += Number(readFileSync(`/proc/${entry}/schedstat`, "utf8").split(" ")[0]) / 1e9;
      if (pid === postmasterPid) seconds += (Number(fields[13]) + Number(fields[14])) / ticks; // cutime, cstime
    } catch {
      // the process ended meanwhile
    }
  }
  return seconds;
}

interface Subscriber {
  user: string;
  ws: WebSocket;
  ref: number;
  replies: Map<string, (reply: { status: string; response: Record<string, unknown> }) => void>;
  onBroadcast?: (payload: { event: string; payload: { n: number } }) => void;
  onChange?: (data: { record: { body: string } }) => void;
  onSystem?: (payload: { extension: string; status: string; message: string }) => void;
}

function token(user: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ sub: user, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600, email: `${user}@bench.test` });
}

async function connect(user: string): Promise<Subscriber> {
  const ws = new WebSocket(wsUrl);
  const subscriber: Subscriber = { user, ws, ref: 0, replies: new Map() };
  ws.on("message", (data) => {
    const [, ref, , event, payload] = JSON.parse(String(data)) as [string | null, string | null, string, string, Record<string, unknown>];
    if (event === "phx_reply" && ref) subscriber.replies.get(ref)?.(payload as { status: string; response: Record<string, unknown> });
    else if (event === "broadcast") subscriber.onBroadcast?.(payload as { event: string; payload: { n: number } });
    else if (event === "postgres_changes") subscriber.onChange?.((payload as { data: { record: { body: string } } }).data);
    else if (event === "system") subscriber.onSystem?.(payload as { extension: string; status: string; message: string });
  });
  await new Promise<void>((resolve, reject) => ws.once("open", () => resolve()).once("error", reject));
  const heartbeat = setInterval(() => ws.readyState === ws.OPEN && ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}])), 25_000);
  heartbeat.unref();
  return subscriber;
}

function join(s: Subscriber, channel: string, config: Record<string, unknown>): Promise<{ status: string; response: Record<string, unknown> }> {
  const ref = String(++s.ref);
  return new Promise((resolve) => {
    s.replies.set(ref, resolve);
    s.ws.send(JSON.stringify([ref, ref, `realtime:${channel}`, "phx_join", { config, access_token: token(s.user) }]));
  });
}

/** Joins in batches, so a thousand authorisations do not all queue at once. */
async function inBatches<T>(items: T[], work: (item: T) => Promise<void>, size = 50): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

const users = Array.from({ length: total }, () => randomUUID());
const subscribers: Subscriber[] = [];

async function setUp(): Promise<void> {
  await db.query(`
    drop table if exists public.fx_bc_bench, public.fx_bc_bench_members;
    drop policy if exists fx_bc_bench_read on realtime.messages;
    create table public.fx_bc_bench_members (user_id uuid primary key);
    grant select on public.fx_bc_bench_members to authenticated;
    create policy fx_bc_bench_read on realtime.messages for select to authenticated
      using ((select realtime.topic()) = '${topic}' and exists (select 1 from public.fx_bc_bench_members m where m.user_id = (select auth.uid())));
    create table public.fx_bc_bench (id bigint generated always as identity primary key, body text not null);
    alter table public.fx_bc_bench enable row level security;
    create policy fx_bc_bench_members_read on public.fx_bc_bench for select to authenticated
      using (exists (select 1 from public.fx_bc_bench_members m where m.user_id = (select auth.uid())));
    alter publication supabase_realtime add table public.fx_bc_bench;`);
  await db.query("insert into public.fx_bc_bench_members (user_id) select unnest($1::uuid[])", [users]);
}

async function tearDown(): Promise<void> {
  for (const s of subscribers) s.ws.close();
  await db.query(`drop policy if exists fx_bc_bench_read on realtime.messages;
                  drop table if exists public.fx_bc_bench, public.fx_bc_bench_members;
                  delete from realtime.messages where topic = '${topic}';`);
  await db.end();
}

async function joinBroadcast(group: Subscriber[]): Promise<void> {
  await inBatches(group, async (s) => {
    const reply = await join(s, topic, { private: true, broadcast: { self: false }, presence: { enabled: false } });
    if (reply.status !== "ok") throw new Error(`join refused: ${JSON.stringify(reply.response)}`);
  });
}

/** Sends `count` messages one after another, each once every receiver has the previous one; returns latencies and the database's CPU per message. */
async function measureBroadcast(receivers: Subscriber[], count: number): Promise<{ latencies: number[]; cpuMsPerMessage: number; missing: number }> {
  const latencies: number[] = [];
  let pending: { n: number; at: number; left: number; done: () => void } | undefined;
  for (const s of receivers) {
    s.onBroadcast = ({ payload }) => {
      const arrived = performance.now();
      if (!pending || payload.n !== pending.n) return;
      latencies.push(arrived - pending.at);
      if (--pending.left === 0) pending.done();
    };
  }
  let missing = 0;
  const cpuBefore = databaseCpuSeconds();
  for (let n = 0; n < count; n++) {
    const delivered = new Promise<void>((done) => (pending = { n, at: performance.now(), left: receivers.length, done }));
    // autocommit: the message is committed when this returns; the clock started just before it was sent
    await db.query("select realtime.send(jsonb_build_object('n', $1::int), 'tick', $2)", [n, topic]);
    const ok = await Promise.race([delivered.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    if (!ok) missing += pending?.left ?? 0;
  }
  const cpuMsPerMessage = ((databaseCpuSeconds() - cpuBefore) * 1000) / count;
  for (const s of receivers) s.onBroadcast = undefined;
  return { latencies, cpuMsPerMessage, missing };
}

async function measureChanges(receivers: Subscriber[], count: number): Promise<{ latencies: number[]; cpuMsPerMessage: number; missing: number }> {
  await inBatches(receivers, async (s) => {
    const subscribed = new Promise<void>((resolve, reject) => {
      s.onSystem = (m) => {
        if (m.extension !== "postgres_changes") return;
        if (m.status === "ok") resolve();
        else reject(new Error(m.message));
      };
    });
    const reply = await join(s, `bench-changes-${s.user}`, { private: false, postgres_changes: [{ event: "INSERT", schema: "public", table: "fx_bc_bench" }] });
    if (reply.status !== "ok") throw new Error(`join refused: ${JSON.stringify(reply.response)}`);
    await subscribed;
  });
  const latencies: number[] = [];
  let pending: { body: string; at: number; left: number; done: () => void } | undefined;
  for (const s of receivers) {
    s.onChange = (data) => {
      const arrived = performance.now();
      if (!pending || data.record.body !== pending.body) return;
      latencies.push(arrived - pending.at);
      if (--pending.left === 0) pending.done();
    };
  }
  let missing = 0;
  const cpuBefore = databaseCpuSeconds();
  for (let n = 0; n < count; n++) {
    const body = `change-${n}`;
    const delivered = new Promise<void>((done) => (pending = { body, at: performance.now(), left: receivers.length, done }));
    await db.query("insert into public.fx_bc_bench (body) values ($1)", [body]);
    const ok = await Promise.race([delivered.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
    if (!ok) missing += pending?.left ?? 0;
  }
  return { latencies, cpuMsPerMessage: ((databaseCpuSeconds() - cpuBefore) * 1000) / count, missing };
}

function report(label: string, result: { latencies: number[]; cpuMsPerMessage: number; missing: number }, goal?: number): void {
  const p99 = percentile(result.latencies, 99);
  console.log(label);
  console.log(
    `  commit → delivery p50 ${fmt(percentile(result.latencies, 50))}   p99 ${fmt(p99)}   max ${fmt(result.latencies.reduce((a, b) => Math.max(a, b), 0))}` +
      (goal ? `   (goal p99 < ${goal} ms: ${p99 < goal ? "met" : "NOT met"})` : ""),
  );
  console.log(`  database CPU per message: ${result.cpuMsPerMessage.toFixed(3)} ms${result.missing ? `   (${result.missing} deliveries did not arrive)` : ""}`);
}

try {
  await setUp();
  const began = performance.now();
  for (const user of users) subscribers.push(await connect(user));
  await joinBroadcast(subscribers.slice(0, few));
  // warm up: the first messages pay for the stream's relation metadata and the sockets' buffers
  await measureBroadcast(subscribers.slice(0, few), 20);
  const small = await measureBroadcast(subscribers.slice(0, few), messages);
  await joinBroadcast(subscribers.slice(few));
  console.log(`(${total} sockets connected and joined to the private channel "${topic}" as ${total} users in ${((performance.now() - began) / 1000).toFixed(1)} s)`);
  await measureBroadcast(subscribers, 20);
  const large = await measureBroadcast(subscribers, messages);
  report(`Broadcast from the database (realtime.send, ${messages} messages), ${few} subscribers:`, small);
  report(`Broadcast from the database (realtime.send, ${messages} messages), ${total} subscribers as ${total} users on one private channel:`, large, goalMs);
  const growth = (large.cpuMsPerMessage / small.cpuMsPerMessage - 1) * 100;
  console.log(`  database CPU per message, ${total} vs ${few} subscribers: ${growth >= 0 ? "+" : ""}${growth.toFixed(0)}%   (goal within ±20%: ${Math.abs(growth) <= 20 ? "met" : "NOT met"})`);
  const compared = await measureChanges(subscribers, changes);
  report(`postgres_changes under RLS, the same ${total} users subscribed (${changes} inserts, each checked against every subscriber):`, compared);
  console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
} finally {
  await tearDown();
}
process.exit(0);

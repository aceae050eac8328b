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
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { dbUrl } from "../lib/postgres.ts";
import {
  type Delivery,
  type Subscriber,
  connect,
  databaseCpuMeter,
  joinPrivate,
  measureDeliveries,
  reportDelivery,
  subscribeChanges,
} from "./realtime-sockets.ts";

const total = Number(process.env.BENCH_BC_SUBSCRIBERS ?? 1000);
const few = Math.min(100, total);
const messages = Number(process.env.BENCH_BC_MESSAGES ?? 200);
const changes = Number(process.env.BENCH_BC_CHANGES ?? 30);
const topic = "bench-room:1";
const goalMs = 50;

const config = loadConfig();
const db = new pg.Client({ connectionString: dbUrl(config) });
await db.connect();
const databaseCpuSeconds = databaseCpuMeter();

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

/** Sends `count` messages with realtime.send, one after another, each once every receiver has the previous one. */
function measureBroadcast(receivers: Subscriber[], count: number): Promise<Delivery> {
  return measureDeliveries(
    receivers,
    count,
    (s, arrived) => (s.onBroadcast = ({ payload }) => arrived(payload.n as number)),
    (s) => (s.onBroadcast = undefined),
    // autocommit: the message is committed when this returns
    (n) => db.query("select realtime.send(jsonb_build_object('n', $1::int), 'tick', $2)", [n, topic]),
    databaseCpuSeconds,
  );
}

async function measureChanges(receivers: Subscriber[], count: number): Promise<Delivery> {
  await subscribeChanges(receivers, (s) => `bench-changes-${s.user}`, { event: "INSERT", schema: "public", table: "fx_bc_bench" });
  return measureDeliveries(
    receivers,
    count,
    (s, arrived) => (s.onChange = (data) => arrived(Number(String(data.record.body).slice("change-".length)))),
    (s) => (s.onChange = undefined),
    (n) => db.query("insert into public.fx_bc_bench (body) values ($1)", [`change-${n}`]),
    databaseCpuSeconds,
    15_000,
  );
}

try {
  await setUp();
  const began = performance.now();
  for (const user of users) subscribers.push(await connect(config, user));
  await joinPrivate(subscribers.slice(0, few), topic);
  // warm up: the first messages pay for the stream's relation metadata and the sockets' buffers
  await measureBroadcast(subscribers.slice(0, few), 20);
  const small = await measureBroadcast(subscribers.slice(0, few), messages);
  await joinPrivate(subscribers.slice(few), topic);
  console.log(
    `(${total} sockets connected and joined to the private channel "${topic}" as ${total} users in ${((performance.now() - began) / 1000).toFixed(1)} s)`,
  );
  await measureBroadcast(subscribers, 20);
  const large = await measureBroadcast(subscribers, messages);
  reportDelivery(`Broadcast from the database (realtime.send, ${messages} messages), ${few} subscribers:`, small);
  reportDelivery(
    `Broadcast from the database (realtime.send, ${messages} messages), ${total} subscribers as ${total} users on one private channel:`,
    large,
    goalMs,
  );
  const growth = (large.cpuMsPerMessage / small.cpuMsPerMessage - 1) * 100;
  console.log(
    `  database CPU per message, ${total} vs ${few} subscribers: ${growth >= 0 ? "+" : ""}${growth.toFixed(0)}%   (goal within ±20%: ${Math.abs(growth) <= 20 ? "met" : "NOT met"})`,
  );
  const compared = await measureChanges(subscribers, changes);
  reportDelivery(
    `postgres_changes under RLS, the same ${total} users subscribed (${changes} inserts, each checked against every subscriber):`,
    compared,
  );
  console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
} finally {
  await tearDown();
}
process.exit(0);

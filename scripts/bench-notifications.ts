// `npm run bench:notifications`: what notifications cost, in one run.
//  1. A reply → its notification on the recipient's private channel `user:{id}`: the recipient's
//     socket has joined it as realtime-js does; 200 replies to their comment, each by another
//     member, committed one after another; commit → delivery p50/p99, and the database's CPU per reply.
//  2. A comment that gets 1,000 reactions, one from each of 1,000 members: the notification rows
//     its author ends up with (grouping keeps them to one) and the time and database CPU per
//     reaction, against the same 1,000 reactions with the notification trigger off, in the same run.
// Figures only: it never fails on wall-clock. Seeds a fresh public room each run and removes it after.
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";
import {
  type Subscriber,
  connect,
  databaseCpuMeter,
  fmtMs,
  joinPrivate,
  measureDeliveries,
  percentile,
  reportDelivery,
} from "@cuepoint/stack/realtime-bench";

const config = loadConfig();
const memberCount = Number(process.env.BENCH_NOTIFICATIONS_MEMBERS ?? 1000);
const replies = Math.min(Number(process.env.BENCH_NOTIFICATIONS_REPLIES ?? 200), memberCount);
const roomSlug = "bench-notifications";

interface Fixture {
  roomId: string;
  postId: string;
  recipient: string;
  members: string[];
}

async function seed(db: pg.Client): Promise<Fixture> {
  await db.query("delete from public.rooms where slug = $1", [roomSlug]);
  await db.query("delete from auth.users where email like 'bench-notifications-%'");
  const recipient = randomUUID();
  const members = Array.from({ length: memberCount }, () => randomUUID()).sort();
  await db.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     select id, 'authenticated', 'authenticated', 'bench-notifications-' || left(id::text, 13) || '@bench.cuepoint.test', now(), now() from unnest($1::uuid[]) id`,
    [[recipient, ...members]],
  );
  const roomId = (
    await db.query<{ id: string }>("insert into public.rooms (slug, name, owner_id) values ($1, 'Bench: notifications', $2) returning id", [
      roomSlug,
      recipient,
    ])
  ).rows[0].id;
  await db.query("insert into public.memberships (room_id, user_id, role) select $1, unnest($2::uuid[]), 'member'", [roomId, members]);
  const postId = (
    await db.query<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'Notifications', 'embed', 'https://vimeo.com/76979871', 600) returning id",
      [roomId, recipient],
    )
  ).rows[0].id;
  return { roomId, postId, recipient, members };
}

const comment = async (db: pg.Client, f: Fixture, body: string) =>
  (
    await db.query<{ id: string }>(
      "insert into public.moments (post_id, author_id, at_seconds, body) values ($1, $2, 102, $3) returning id",
      [f.postId, f.recipient, body],
    )
  ).rows[0].id;

async function benchReplies(db: pg.Client, f: Fixture): Promise<void> {
  const parent = await comment(db, f, "the drop at 1:42");
  const cpuSeconds = databaseCpuMeter();
  const subscriber: Subscriber = await connect(config, f.recipient);
  try {
    await joinPrivate([subscriber], `user:${f.recipient}`);
    let current = -1;
    const reply = (from: number) => (n: number) => {
      current = n;
      return db.query("insert into public.moments (post_id, author_id, body, parent_id) values ($1, $2, $3, $4)", [
        f.postId,
        f.members[(from + n) % f.members.length],
        `reply ${n}`,
        parent,
      ]);
    };
    const measure = (count: number, from: number) =>
      measureDeliveries(
        [subscriber],
        count,
        (s, arrived) =>
          (s.onBroadcastText = (frame) => {
            // ids only on this channel: the frame in flight is the reply just committed
            if (frame.includes('"event":"notification"')) arrived(current);
          }),
        (s) => (s.onBroadcastText = undefined),
        reply(from),
        cpuSeconds,
      );
    await measure(20, 0); // warm up
    const result = await measure(replies - 20, 20);
    reportDelivery(
      `A reply → its notification on the recipient's private channel user:{id} (${replies - 20} replies, each by another member):`,
      result,
      100,
    );
  } finally {
    subscriber.ws.close();
  }
}

async function reactAll(db: pg.Client, f: Fixture, momentId: string, cpuSeconds: () => number) {
  const times: number[] = [];
  const cpuBefore = cpuSeconds();
  for (const member of f.members) {
    const started = performance.now();
    await db.query("insert into public.reactions (moment_id, user_id, emoji) values ($1, $2, '🔥')", [momentId, member]);
    times.push(performance.now() - started);
  }
  return { times, cpuMsPerReaction: ((cpuSeconds() - cpuBefore) * 1000) / f.members.length };
}

async function benchReactions(db: pg.Client, f: Fixture): Promise<void> {
  const cpuSeconds = databaseCpuMeter();
  const quiet = await comment(db, f, "without notifications");
  const loud = await comment(db, f, "with notifications");
  await db.query("alter table public.reactions disable trigger reactions_notify");
  let without: Awaited<ReturnType<typeof reactAll>>;
  try {
    without = await reactAll(db, f, quiet, cpuSeconds);
  } finally {
    await db.query("alter table public.reactions enable trigger reactions_notify");
  }
  const grouped = await reactAll(db, f, loud, cpuSeconds);
  const rows = (
    await db.query<{ n: string; count: string | null }>(
      "select count(*) as n, max((data ->> 'count')::int) as count from public.notifications where user_id = $1 and moment_id = $2",
      [f.recipient, loud],
    )
  ).rows[0];
  console.log(
    `\nA comment reacted to ${f.members.length.toLocaleString("en")} times, once by each of ${f.members.length.toLocaleString("en")} members:`,
  );
  console.log(
    `  notification rows for its author: ${rows.n} (counting ${rows.count} reactions)   (goal: 1 — ${rows.n === "1" ? "met" : "NOT met"})`,
  );
  const line = (label: string, r: { times: number[]; cpuMsPerReaction: number }) =>
    console.log(
      `  ${label} insert p50 ${fmtMs(percentile(r.times, 50))}   p99 ${fmtMs(percentile(r.times, 99))}   database CPU per reaction ${r.cpuMsPerReaction.toFixed(3)} ms`,
    );
  line("with the grouped notification:   ", grouped);
  line("with notifications off (baseline):", without);
}

const db = new pg.Client({ connectionString: dbUrl(config) });
await db.connect();
let fixture: Fixture | undefined;
try {
  fixture = await seed(db);
  const parts = process.argv.slice(2);
  if (!parts.length || parts.includes("replies")) await benchReplies(db, fixture);
  if (!parts.length || parts.includes("reactions")) await benchReactions(db, fixture);
  console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
} finally {
  if (fixture) {
    await db.query("delete from public.rooms where id = $1", [fixture.roomId]);
    await db.query("delete from realtime.messages where topic = $1", [`user:${fixture.recipient}`]);
    await db.query("delete from auth.users where email like 'bench-notifications-%'");
  }
  await db.end();
}
process.exit(0);

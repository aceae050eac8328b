// `npm run bench:moments`: a post's moments and its room's live channel at scale, in one run.
//  1. A post with 10,000 moments (and their reactions) in a gated room, read as a member through
//     /rest/v1 with the post page's query — the first page of 100, the next page by cursor and a
//     page in the middle — p50/p99, with the service role (no RLS) interleaved for comparison.
//  2. The room's private channel, `room:{room id}` (at its current access epoch), joined by 100 and then 1,000 sockets as 1,000
//     distinct members: commit of a moment insert (its trigger broadcasts it) → delivery to every
//     socket, p50/p99, and the database's CPU per message at 100 and at 1,000 subscribers.
//  3. For comparison, the same 1,000 members through postgres_changes on public.moments under RLS
//     (every change checked against every subscriber).
//  4. Search: public.search_content through /rest/v1/rpc/search_content over 100,000 comments in
//     public rooms (seeded once, in their own rooms), as a member and signed out, p50/p99 for a few
//     queries, and the plan of its index scan (EXPLAIN, once).
//  5. The heat strip: public.post_heat (48 parts, the post page's ask) through /rest/v1/rpc/post_heat
//     over the same 10,000 moments, as a member and as the service role, p50/p99, and its plan
//     (auto_explain of the function's statement, once): which indexes it reads.
// Figures only: it never fails on wall-clock. Seeds once and reuses the room afterwards.
// `npm run bench:moments -- pages`, `-- channel`, `-- search` or `-- heat` runs one part.
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import {
  type Delivery,
  type Subscriber,
  connect,
  databaseCpuMeter,
  joinPrivate,
  measureDeliveries,
  percentile,
  reportDelivery,
  subscribeChanges,
  userToken,
} from "@cuepoint/stack/realtime-bench";

const config = loadConfig();
const api = `http://127.0.0.1:${config.apiPort}`;
const roomSlug = "bench-moments-10k";
const momentCount = 10_000;
const memberCount = Number(process.env.BENCH_MOMENTS_SUBSCRIBERS ?? 1000);
const few = Math.min(100, memberCount);
const runs = Number(process.env.BENCH_MOMENTS_RUNS ?? 400);
const messages = Number(process.env.BENCH_MOMENTS_MESSAGES ?? 200);
const changes = Number(process.env.BENCH_MOMENTS_CHANGES ?? 30);
// The post page's query (its columns, order and page size).
const select = "id,post_id,author_id,at_seconds,body,created_at,updated_at,reactions(emoji,user_id)";
const emoji = ["🔥", "❤️", "😂", "😮", "👏"];

interface Fixture {
  roomId: string;
  postId: string;
  livePostId: string;
  ownerId: string;
  members: string[];
}

async function seed(db: pg.Client): Promise<Fixture> {
  const existing = (await db.query<{ id: string; owner_id: string }>("select id, owner_id from public.rooms where slug = $1", [roomSlug]))
    .rows[0];
  if (existing) {
    const posts = (
      await db.query<{ id: string; title: string; n: string }>(
        "select p.id, p.title, (select count(*) from public.moments m where m.post_id = p.id) as n from public.posts p where p.room_id = $1",
        [existing.id],
      )
    ).rows;
    const members = (
      await db.query<{ user_id: string }>(
        "select user_id from public.memberships where room_id = $1 and role = 'member' order by user_id",
        [existing.id],
      )
    ).rows.map((r) => r.user_id);
    const paged = posts.find((p) => p.title === "10,000 moments");
    const live = posts.find((p) => p.title === "Live");
    if (paged && live && Number(paged.n) === momentCount && members.length >= memberCount) {
      return {
        roomId: existing.id,
        postId: paged.id,
        livePostId: live.id,
        ownerId: existing.owner_id,
        members: members.slice(0, memberCount),
      };
    }
    await db.query("delete from public.rooms where id = $1", [existing.id]);
  }
  const started = performance.now();
  const ownerId = randomUUID();
  const members = Array.from({ length: memberCount }, () => randomUUID()).sort();
  await db.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     select id, 'authenticated', 'authenticated', 'bench-moments-' || left(id::text, 13) || '@bench.cuepoint.test', now(), now() from unnest($1::uuid[]) id`,
    [[ownerId, ...members]],
  );
  const roomId = randomUUID();
  await db.query(
    `with room as (insert into public.rooms (id, slug, name, owner_id, visibility) values ($1, $2, 'Bench: 10k moments', $3, 'gated') returning id)
     insert into public.room_gates (room_id, chain_id, contract_address, standard) select id, 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721' from room`,
    [roomId, roomSlug, ownerId],
  );
  await db.query("insert into public.memberships (room_id, user_id, role, verified_at) select $1, unnest($2::uuid[]), 'member', now()", [
    roomId,
    members,
  ]);
  const post = async (title: string) =>
    (
      await db.query<{ id: string }>(
        "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', 3600) returning id",
        [roomId, members[0], title],
      )
    ).rows[0].id;
  const postId = await post("10,000 moments");
  const livePostId = await post("Live");
  // Seeded rows skip the triggers (no 25,000 broadcasts nobody listens to): the copied columns are
  // written here as the triggers would.
  await db.query("begin");
  await db.query("set local session_replication_role = replica");
  await db.query(
    `insert into public.moments (post_id, room_id, author_id, at_seconds, body, created_at)
     select $1, $2, ($3::uuid[])[1 + i % 50], case when i % 20 = 0 then null else round((i * 0.36)::numeric, 3) end,
            'Moment ' || i || ': a few words about this part of the track', now() - make_interval(secs => $4 - i)
     from generate_series(1, $4::int) i`,
    [postId, roomId, members, momentCount],
  );
  await db.query(
    `insert into public.reactions (moment_id, post_id, room_id, user_id, emoji)
     select m.id, m.post_id, m.room_id, ($2::uuid[])[1 + ((k * 7 + m.rn) % 200)::int], ($3::text[])[1 + k]
     from (select id, post_id, room_id, row_number() over (order by id) as rn from public.moments where post_id = $1) m,
          generate_series(0, 2) k
     where k < m.rn % 4`,
    [postId, members, emoji],
  );
  await db.query("commit");
  await db.query("analyze public.moments; analyze public.reactions");
  const reactions = (await db.query<{ n: string }>("select count(*) as n from public.reactions where post_id = $1", [postId])).rows[0].n;
  console.log(
    `Seeded ${momentCount.toLocaleString("en")} moments (${Number(reactions).toLocaleString("en")} reactions) and ${memberCount.toLocaleString("en")} members in a gated room in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { roomId, postId, livePostId, ownerId, members };
}

/** Member and service-role requests interleaved, so both see the same machine load. */
async function timeRequests(url: string, expected: number, callers: Record<"member" | "service", Record<string, string>>) {
  const once = async (headers: Record<string, string>) => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = (await response.json()) as unknown[];
    if (!response.ok || !Array.isArray(body)) throw new Error(`${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    if (body.length !== expected) throw new Error(`expected ${expected} rows, got ${body.length}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 30; i++) for (const headers of Object.values(callers)) await once(headers);
  const times = { member: [] as number[], service: [] as number[] };
  for (let i = 0; i < runs; i++) {
    times.member.push(await once(callers.member));
    times.service.push(await once(callers.service));
  }
  return Object.fromEntries(
    Object.entries(times).map(([who, list]) => [who, { p50: percentile(list, 50), p99: percentile(list, 99) }]),
  ) as Record<"member" | "service", { p50: number; p99: number }>;
}

async function benchPages(db: pg.Client, fixture: Fixture): Promise<void> {
  const asMember = { apikey: anonKey, Authorization: `Bearer ${userToken(fixture.members[1])}` };
  const asService = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` };
  const base = `${api}/rest/v1/moments?select=${select}&post_id=eq.${fixture.postId}&order=at_seconds.asc.nullslast,id.asc&limit=100`;
  const after = async (offset: number) => {
    const row = (
      await db.query<{ at_seconds: string; id: string }>(
        "select at_seconds, id from public.moments where post_id = $1 order by at_seconds asc nulls last, id asc offset $2 limit 1",
        [fixture.postId, offset],
      )
    ).rows[0];
    // (at, id) > cursor, with `at >= cursor` as its own condition so the scan starts at the cursor;
    // once the timed moments run out, the general ones (at null) follow by id.
    return `${base}&at_seconds=gte.${row.at_seconds}&or=(at_seconds.gt.${row.at_seconds},id.gt.${row.id})`;
  };
  const pages = {
    "first page": base,
    "next page (cursor after moment 100)": await after(99),
    "page after moment 5,000 (cursor)": await after(4999),
  };
  console.log(
    `\nA post's moments, 100 a page, from a post with ${momentCount.toLocaleString("en")} moments in a gated room: GET /rest/v1/moments (reactions embedded), ${runs} sequential requests each, member and service role interleaved:`,
  );
  for (const [name, url] of Object.entries(pages)) {
    const { member, service } = await timeRequests(url, 100, { member: asMember, service: asService });
    console.log(`  ${name}:`);
    console.log(
      `    member (RLS)      p50 ${member.p50.toFixed(2)} ms   p99 ${member.p99.toFixed(2)} ms   (goal p99 < 25 ms: ${member.p99 < 25 ? "met" : "NOT met"})`,
    );
    console.log(`    service role      p50 ${service.p50.toFixed(2)} ms   p99 ${service.p99.toFixed(2)} ms`);
  }
}

async function benchHeat(db: pg.Client, fixture: Fixture): Promise<void> {
  // The tables as autovacuum leaves them a while after the seed: the visibility map set, so the
  // reactions' covering index answers without their rows.
  await db.query("vacuum analyze public.moments, public.reactions");
  const member = fixture.members[1];
  await db.query("update public.memberships set verified_at = now() where room_id = $1 and user_id = $2", [fixture.roomId, member]);
  const callers = {
    member: { apikey: anonKey, Authorization: `Bearer ${userToken(member)}`, "Content-Type": "application/json" },
    service: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, "Content-Type": "application/json" },
  };
  const once = async (headers: Record<string, string>) => {
    const started = performance.now();
    const response = await fetch(`${api}/rest/v1/rpc/post_heat`, {
      method: "POST",
      headers,
      body: JSON.stringify({ post_id: fixture.postId, buckets: 48 }),
    });
    const body = (await response.json()) as { comments: number }[];
    if (!response.ok || !Array.isArray(body)) throw new Error(`${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    const comments = body.reduce((sum, part) => sum + part.comments, 0);
    if (comments !== momentCount * 0.95) throw new Error(`expected ${momentCount * 0.95} timed comments, got ${comments}`);
    return performance.now() - started;
  };
  // Its plan, once: the function's own statement, as auto_explain logs it.
  await db.query("load 'auto_explain'");
  await db.query(
    "set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_analyze = on",
  );
  const plans: string[] = [];
  const onNotice = (notice: { message?: string }) => void (notice.message?.includes("with timed as") && plans.push(notice.message));
  db.on("notice", onNotice);
  await db.query("begin");
  await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: member, role: "authenticated" })]);
  await db.query("set local role authenticated");
  await db.query("select * from public.post_heat($1, 48)", [fixture.postId]);
  await db.query("rollback");
  await db.query("set auto_explain.log_min_duration = -1");
  db.off("notice", onNotice);
  const plan = plans.at(-1) ?? "(no plan)";
  const uses = (index: string) => (plan.includes(index) ? "yes" : "NO");
  console.log(`\nThe heat strip's plan (public.post_heat, 48 parts, as a member), as auto_explain logged it:\n${plan}`);
  console.log(`  reads the post's comments by moments_post_timeline_idx: ${uses("moments_post_timeline_idx")}`);
  console.log(`  reads its reactions by reactions_post_moment_idx: ${uses("reactions_post_moment_idx")}`);

  for (let i = 0; i < 30; i++) for (const headers of Object.values(callers)) await once(headers);
  const times = { member: [] as number[], service: [] as number[] };
  for (let i = 0; i < runs; i++) {
    times.member.push(await once(callers.member));
    times.service.push(await once(callers.service));
  }
  console.log(
    `\nThe heat strip: POST /rest/v1/rpc/post_heat (48 parts) over ${momentCount.toLocaleString("en")} moments in a gated room, ${runs} sequential requests each, member and service role interleaved:`,
  );
  const member99 = percentile(times.member, 99);
  console.log(
    `    member (RLS)      p50 ${percentile(times.member, 50).toFixed(2)} ms   p99 ${member99.toFixed(2)} ms   (goal p99 < 25 ms: ${member99 < 25 ? "met" : "NOT met"})`,
  );
  console.log(
    `    service role      p50 ${percentile(times.service, 50).toFixed(2)} ms   p99 ${percentile(times.service, 99).toFixed(2)} ms`,
  );
  console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
}

async function benchChannel(db: pg.Client, fixture: Fixture): Promise<void> {
  // The room's current topic (it carries the room's access epoch once access has narrowed).
  const topic = String((await db.query("select private.current_room_topic('room', $1) as topic", [fixture.roomId])).rows[0].topic);
  const cpuSeconds = databaseCpuMeter();
  const subscribers: Subscriber[] = [];
  const insertMoment = (body: string, author = fixture.ownerId) =>
    db.query("insert into public.moments (post_id, author_id, at_seconds, body) values ($1, $2, 1, $3)", [
      fixture.livePostId,
      author,
      body,
    ]);
  // Each moment by another member (never the owner, whom slow mode exempts), each member once in the
  // whole run (slow mode remembers a comment after it is deleted): slow mode checks every insert and
  // refuses none. `from` is the first member of a measurement.
  const byMembers = (from: number) => (n: number) => insertMoment(`live-${n}`, fixture.members[(from + n) % fixture.members.length]);
  const measure = (
    receivers: Subscriber[],
    count: number,
    insert: (n: number) => Promise<unknown> = (n) => insertMoment(`live-${n}`),
  ): Promise<Delivery> =>
    measureDeliveries(
      receivers,
      count,
      // the marker is read from the frame's text (see onBroadcastText); a test checks the payload itself
      (s, arrived) =>
        (s.onBroadcastText = (frame) => {
          const marker = /^[^{]*{"type":"broadcast","event":"moments".*"body": ?"live-(\d+)"/.exec(frame);
          if (marker) arrived(Number(marker[1]));
        }),
      (s) => (s.onBroadcastText = undefined),
      // autocommit: the moment (and its broadcast, written by its trigger) is committed when this returns
      insert,
      cpuSeconds,
    );
  try {
    const began = performance.now();
    for (const user of fixture.members) subscribers.push(await connect(config, user));
    await joinPrivate(subscribers.slice(0, few), topic);
    await measure(subscribers.slice(0, few), 20); // warm up
    const small = await measure(subscribers.slice(0, few), messages);
    await joinPrivate(subscribers.slice(few), topic);
    console.log(
      `\n(${memberCount} sockets connected and joined to the room's private channel as ${memberCount} members in ${((performance.now() - began) / 1000).toFixed(1)} s)`,
    );
    await measure(subscribers, 20);
    const large = await measure(subscribers, messages);
    reportDelivery(`A moment inserted → its broadcast on ${topic.slice(0, 13)}… (${messages} moments), ${few} subscribers:`, small);
    reportDelivery(
      `A moment inserted → its broadcast, ${memberCount} subscribers as ${memberCount} members on the room's private channel:`,
      large,
      50,
    );
    const growth = (large.cpuMsPerMessage / small.cpuMsPerMessage - 1) * 100;
    console.log(
      `  database CPU per message, ${memberCount} vs ${few} subscribers: ${growth >= 0 ? "+" : ""}${growth.toFixed(0)}%   (goal within ±20%: ${Math.abs(growth) <= 20 ? "met" : "NOT met"})`,
    );
    await benchModerated(db, fixture, (count, insert) => measure(subscribers, count, insert), byMembers);

    await db.query("alter publication supabase_realtime add table public.moments");
    try {
      await subscribeChanges(subscribers, (s) => `bench-moments-changes-${s.user}`, {
        event: "INSERT",
        schema: "public",
        table: "moments",
        filter: `post_id=eq.${fixture.livePostId}`,
      });
      const compared = await measureDeliveries(
        subscribers,
        changes,
        (s, arrived) =>
          (s.onChange = ({ record }) => {
            const body = String(record.body);
            if (body.startsWith("changes-")) arrived(Number(body.slice(8)));
          }),
        (s) => (s.onChange = undefined),
        (n) => insertMoment(`changes-${n}`),
        cpuSeconds,
        15_000,
      );
      reportDelivery(
        `postgres_changes on public.moments under RLS, the same ${memberCount} members subscribed (${changes} inserts, each checked against every subscriber):`,
        compared,
      );
    } finally {
      await db.query("alter publication supabase_realtime drop table public.moments");
    }
    console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
  } finally {
    for (const s of subscribers) s.ws.close();
    await db.query("delete from public.moments where post_id = $1", [fixture.livePostId]);
    await db.query("delete from realtime.messages where topic = $1", [topic]);
  }
}

/** Blocked terms a busy room might keep; none is in the bench's comments, so every comment is checked and none is held. */
const blockedTerms = Array.from({ length: 50 }, (_, i) => `blockedword${i}`);

/**
 * The same delivery at full size with the room's moderation on — slow mode (one minute) and 50
 * blocked terms — against the same without, each moment by a different member, in one run.
 */
async function benchModerated(
  db: pg.Client,
  fixture: Fixture,
  measure: (count: number, insert: (n: number) => Promise<unknown>) => Promise<Delivery>,
  byMembers: (from: number) => (n: number) => Promise<unknown>,
): Promise<void> {
  // Members' moments count against slow mode only while their membership counts: fresh checks for the run.
  await db.query("update public.memberships set verified_at = now() where room_id = $1", [fixture.roomId]);
  const count = Math.min(messages, Math.floor((fixture.members.length - 20) / 2));
  await measure(20, byMembers(0));
  await db.query("delete from public.moments where post_id = $1", [fixture.livePostId]);
  const without = await measure(count, byMembers(20));
  await db.query("delete from public.moments where post_id = $1", [fixture.livePostId]);
  await db.query("update public.rooms set slow_mode_seconds = 60 where id = $1", [fixture.roomId]);
  await db.query("insert into public.room_blocked_terms (room_id, term, created_by) select $1, unnest($2::text[]), $3", [
    fixture.roomId,
    blockedTerms,
    fixture.ownerId,
  ]);
  try {
    const moderated = await measure(count, byMembers(20 + count));
    reportDelivery(`Each by another member, moderation off (${count} moments), ${memberCount} subscribers:`, without);
    reportDelivery(`The same with slow mode (60 s) and ${blockedTerms.length} blocked terms on:`, moderated);
    const change = (percentile(moderated.latencies, 99) / percentile(without.latencies, 99) - 1) * 100;
    console.log(`  delivery p99 with moderation on vs off: ${change >= 0 ? "+" : ""}${change.toFixed(0)}%`);
  } finally {
    await db.query("update public.rooms set slow_mode_seconds = 0 where id = $1", [fixture.roomId]);
    await db.query("delete from public.room_blocked_terms where room_id = $1", [fixture.roomId]);
    await db.query("delete from public.moments where post_id = $1", [fixture.livePostId]);
  }
}

const searchSlug = "bench-search-100k";
const searchRooms = 20;
const searchPosts = 200;
const searchComments = 100_000;

/** Made-up words, 600 of them, each in roughly 1.3% of the comments (eight a comment, uniformly). */
const fillerWords = (() => {
  const starts = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr", "gl"];
  const vowels = ["a", "e", "i", "o", "u", "ai", "ou"];
  const ends = ["n", "r", "l", "m", "s", "x", "nd", "rt"];
  const words: string[] = [];
  for (const a of starts) for (const v of vowels) for (const e of ends) if (words.length < 600) words.push(`${a}${v}${e}o`);
  return words;
})();

/**
 * 100,000 comments spread over 200 posts in 20 public rooms: eight filler words each, plus words at
 * known rates — "bass" in 5%, "drop" in 4% (both in 1%), "synthesizer" or "synthwave" in 1%, "cafe"
 * (unaccented) in 0.5%, "theremin" in 10 comments. Seeded once (replica mode: no triggers, the
 * copied room_id written as they would), reused while the rooms exist.
 */
async function seedSearch(db: pg.Client): Promise<{ memberId: string }> {
  const existing = (
    await db.query<{ n: string; member: string | null }>(
      `select (select count(*) from public.moments m join public.rooms r on r.id = m.room_id where r.slug like $1) as n,
              (select m.user_id from public.memberships m join public.rooms r on r.id = m.room_id where r.slug = $2 and m.role = 'member' limit 1) as member`,
      [`${searchSlug}-%`, `${searchSlug}-1`],
    )
  ).rows[0];
  if (Number(existing.n) === searchComments && existing.member) return { memberId: existing.member };
  await db.query("delete from public.rooms where slug like $1", [`${searchSlug}-%`]);
  const started = performance.now();
  const users = Array.from({ length: 100 }, () => randomUUID());
  await db.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     select id, 'authenticated', 'authenticated', 'bench-search-' || left(id::text, 13) || '@bench.cuepoint.test', now(), now() from unnest($1::uuid[]) id`,
    [users],
  );
  await db.query(
    `insert into public.rooms (slug, name, owner_id, visibility)
     select $1 || '-' || i, 'Bench search ' || i, $2, 'public' from generate_series(1, $3::int) i`,
    [searchSlug, users[0], searchRooms],
  );
  await db.query(
    `insert into public.memberships (room_id, user_id, role)
     select r.id, u, 'member' from public.rooms r, unnest($2::uuid[]) u where r.slug like $1 and u <> r.owner_id`,
    [`${searchSlug}-%`, users],
  );
  await db.query(
    `insert into public.posts (room_id, author_id, title, body, media_kind, media_url, duration_seconds)
     select r.id, $2, 'Session ' || i || ': ' || (case when i % 10 = 0 then 'bass music' else 'live set' end), 'Recorded in one take.',
            'embed', 'https://vimeo.com/76979871', 3600
     from generate_series(1, $3::int) i join public.rooms r on r.slug = $1 || '-' || (1 + i % $4)`,
    [searchSlug, users[0], searchPosts, searchRooms],
  );
  await db.query("begin");
  await db.query("set local session_replication_role = replica");
  await db.query(
    `with posts as (select p.id, p.room_id, row_number() over (order by p.id) - 1 as n from public.posts p join public.rooms r on r.id = p.room_id where r.slug like $1)
     insert into public.moments (post_id, room_id, author_id, at_seconds, body, created_at)
     select p.id, p.room_id, ($2::uuid[])[1 + i % 100], (i % 3600)::double precision,
            (select string_agg(($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int], ' ') from generate_series(1, 8) w where w > i * 0)
            || case when i % 100 = 0 then ' bass drop' when i % 20 = 0 then ' bass' when i % 25 = 0 then ' drop' else '' end
            || case when i % 200 = 1 then ' synthesizer' when i % 200 = 2 then ' synthwave' else '' end
            || case when i % 200 = 3 then ' cafe' else '' end
            || case when i % 10000 = 7 then ' theremin' else '' end,
            now() - make_interval(secs => $4 - i)
     from generate_series(1, $4::int) i join posts p on p.n = i % $5`,
    [`${searchSlug}-%`, users, fillerWords, searchComments, searchPosts],
  );
  await db.query("commit");
  await db.query("analyze public.moments; analyze public.posts");
  console.log(
    `Seeded ${searchComments.toLocaleString("en")} comments on ${searchPosts} posts in ${searchRooms} public rooms in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { memberId: users[1] };
}

async function benchSearch(db: pg.Client): Promise<void> {
  const { memberId } = await seedSearch(db);
  const callers = {
    member: { apikey: anonKey, Authorization: `Bearer ${userToken(memberId)}`, "Content-Type": "application/json" },
    anonymous: { apikey: anonKey, Authorization: `Bearer ${anonKey}`, "Content-Type": "application/json" },
  };
  const queries: Record<string, string> = {
    "common word (bass, ~5% of comments)": "bass",
    "rare word (theremin, 10 comments)": "theremin",
    "accented form of unaccented text (café)": "café",
    "two words (bass drop)": "bass drop",
    "a prefix (synth…)": "synth",
  };
  const once = async (headers: Record<string, string>, query: string) => {
    const started = performance.now();
    const response = await fetch(`${api}/rest/v1/rpc/search_content`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query, page_size: 20 }),
    });
    const body = (await response.json()) as unknown[];
    if (!response.ok || !Array.isArray(body)) throw new Error(`${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    if (body.length === 0) throw new Error(`no results for ${query}`);
    return performance.now() - started;
  };
  // The plan of the index scan, once: the function's own statements, as auto_explain sees them.
  await db.query("load 'auto_explain'");
  await db.query(
    "set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_analyze = on",
  );
  const plans: string[] = [];
  const onNotice = (notice: { message?: string }) => {
    if (notice.message?.includes("search_hits") || notice.message?.includes("Bitmap")) plans.push(notice.message);
  };
  db.on("notice", onNotice);
  await db.query("select set_config('request.jwt.claims', $1, false)", [JSON.stringify({ sub: memberId, role: "authenticated" })]);
  await db.query("set role authenticated");
  await db.query("select * from public.search_content('bass', 20)");
  await db.query("reset role");
  await db.query("set auto_explain.log_min_duration = -1");
  db.off("notice", onNotice);
  const plan = plans.find((p) => p.includes("moments_search_idx")) ?? plans.at(-1) ?? "(no plan)";
  console.log(`\nThe plan of a search for "bass" (private.search_hits, as auto_explain logged it):\n${plan}`);
  // The comments' index must answer; the few hundred posts here are read whole when that is cheaper
  // (their words are stored, so a sequential scan no longer parses every post).
  console.log(`  uses the comments' GIN index: ${plan.includes("moments_search_idx") ? "yes" : "NO"}`);
  console.log(`  posts: ${plan.includes("posts_search_idx") ? "by their GIN index" : "read whole (a small table)"}`);

  console.log(
    `\nSearch: POST /rest/v1/rpc/search_content (20 a page) over ${searchComments.toLocaleString("en")} comments in public rooms, ${runs} sequential requests each, member and signed out interleaved:`,
  );
  for (const [name, query] of Object.entries(queries)) {
    for (let i = 0; i < 20; i++) for (const headers of Object.values(callers)) await once(headers, query);
    const times = { member: [] as number[], anonymous: [] as number[] };
    for (let i = 0; i < runs; i++) {
      times.member.push(await once(callers.member, query));
      times.anonymous.push(await once(callers.anonymous, query));
    }
    console.log(`  ${name}:`);
    for (const [who, list] of Object.entries(times)) {
      const p99 = percentile(list, 99);
      console.log(
        `    ${who.padEnd(17)} p50 ${percentile(list, 50).toFixed(2)} ms   p99 ${p99.toFixed(2)} ms   (goal p99 < 25 ms: ${p99 < 25 ? "met" : "NOT met"})`,
      );
    }
  }
}

const db = new pg.Client({ connectionString: dbUrl(config) });
await db.connect();
try {
  const parts = process.argv.slice(2);
  const fixture = parts.length && !parts.includes("pages") && !parts.includes("channel") && !parts.includes("heat") ? null : await seed(db);
  if (fixture && (!parts.length || parts.includes("pages"))) await benchPages(db, fixture);
  if (fixture && (!parts.length || parts.includes("heat"))) await benchHeat(db, fixture);
  if (fixture && (!parts.length || parts.includes("channel"))) await benchChannel(db, fixture);
  if (!parts.length || parts.includes("search")) await benchSearch(db);
} finally {
  await db.end();
}
process.exit(0);

// `npm run bench:posts`: a room's feed through /rest/v1 at scale. Seeds (once) a room with 100,000
// posts, then reads a feed page of 20 — the first page and a page deep in the room, by cursor —
// as a member (RLS: the room's read policy) and as the service role (no RLS), and prints p50/p99 of
// each and the RLS overhead ratio. Figures only: it never fails on wall-clock.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { dbUrl, loadConfig } from "@cuepoint/stack";
import { anonKey, serviceRoleKey, signHs256 } from "@cuepoint/stack/keys";

const config = loadConfig();
const api = `http://127.0.0.1:${config.apiPort}`;
const roomSlug = "bench-posts-100k";
const postCount = 100_000;
const runs = Number(process.env.BENCH_POSTS_RUNS ?? 400);
// The columns the feed reads (lib/posts/queries.ts), author profile included.
const select =
  "id,room_id,author_id,title,body,media_kind,media_url,storage_path,embed,duration_seconds,created_at,updated_at,author:profiles!posts_author_id_fkey(username,display_name,avatar_path)";

async function seed(db: pg.Client): Promise<{ roomId: string; memberId: string }> {
  const existing = await db.query<{ id: string; n: string }>(
    "select r.id, (select count(*) from public.posts p where p.room_id = r.id) as n from public.rooms r where r.slug = $1",
    [roomSlug],
  );
  const memberOf = async (roomId: string) =>
    (await db.query<{ user_id: string }>("select user_id from public.memberships where room_id = $1 and role = 'member' limit 1", [roomId]))
      .rows[0]?.user_id;
  if (existing.rows[0] && Number(existing.rows[0].n) >= postCount) {
    const memberId = await memberOf(existing.rows[0].id);
    if (memberId) return { roomId: existing.rows[0].id, memberId };
  }
  if (existing.rows[0]) await db.query("delete from public.rooms where id = $1", [existing.rows[0].id]);
  const started = performance.now();
  const [ownerId, memberId] = [randomUUID(), randomUUID()];
  for (const [id, name] of [
    [ownerId, "owner"],
    [memberId, "member"],
  ]) {
    await db.query(
      "insert into auth.users (id, aud, role, email, created_at, updated_at) values ($1, 'authenticated', 'authenticated', $2, now(), now())",
      [id, `bench-posts-${name}-${id.slice(0, 8)}@bench.cuepoint.test`],
    );
  }
  const roomId = randomUUID();
  await db.query(
    `with room as (insert into public.rooms (id, slug, name, owner_id, visibility) values ($1, $2, 'Bench: 100k posts', $3, 'gated') returning id)
     insert into public.room_gates (room_id, chain_id, contract_address, standard) select id, 31337, '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707', 'erc721' from room`,
    [roomId, roomSlug, ownerId],
  );
  await db.query("insert into public.memberships (room_id, user_id, role, verified_at) values ($1, $2, 'member', now())", [
    roomId,
    memberId,
  ]);
  await db.query(
    `insert into public.posts (room_id, author_id, title, body, media_kind, media_url, embed, created_at)
     select $1, case when i % 2 = 0 then $2::uuid else $3::uuid end, 'Post ' || i, 'A few words about post ' || i, 'embed',
            'https://www.youtube.com/watch?v=' || lpad(to_hex(i), 11, '0'),
            jsonb_build_object('provider', 'youtube', 'provider_name', 'YouTube', 'title', 'Video ' || i, 'author', 'Channel ' || (i % 50), 'thumbnail_url', 'https://i.ytimg.com/vi/' || lpad(to_hex(i), 11, '0') || '/hqdefault.jpg'),
            now() - make_interval(secs => i)
     from generate_series(1, $4::int) i`,
    [roomId, ownerId, memberId, postCount],
  );
  await db.query("analyze public.posts");
  console.log(`Seeded ${postCount.toLocaleString("en")} posts in a gated room in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { roomId, memberId };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Member and service-role requests interleaved, so both see the same machine load. */
async function timeRequests(url: string, callers: Record<"member" | "service", Record<string, string>>) {
  const once = async (headers: Record<string, string>) => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = (await response.json()) as unknown[];
    if (!response.ok || !Array.isArray(body)) throw new Error(`${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
    if (body.length !== 20) throw new Error(`expected 20 rows, got ${body.length}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 30; i++) for (const headers of Object.values(callers)) await once(headers);
  const times = { member: [] as number[], service: [] as number[] };
  for (let i = 0; i < runs; i++) {
    times.member.push(await once(callers.member));
    times.service.push(await once(callers.service));
  }
  const summary = (list: number[]) => {
    list.sort((a, b) => a - b);
    return { p50: quantile(list, 0.5), p99: quantile(list, 0.99) };
  };
  return { member: summary(times.member), service: summary(times.service) };
}

async function main() {
  const db = new pg.Client({ connectionString: dbUrl(config) });
  await db.connect();
  const { roomId, memberId } = await seed(db);
  const deep = (
    await db.query<{ created_at: Date; id: string }>(
      "select created_at, id from public.posts where room_id = $1 order by created_at desc, id desc offset 50000 limit 1",
      [roomId],
    )
  ).rows[0];
  await db.end();

  const now = Math.floor(Date.now() / 1000);
  const memberToken = signHs256({
    sub: memberId,
    role: "authenticated",
    aud: "authenticated",
    iat: now,
    exp: now + 3600,
    session_id: randomUUID(),
  });
  const asMember = { apikey: anonKey, Authorization: `Bearer ${memberToken}` };
  const asService = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` };
  const base = `${api}/rest/v1/posts?select=${select}&room_id=eq.${roomId}&order=created_at.desc,id.desc&limit=20`;
  const at = deep.created_at.toISOString();
  const pages = {
    "first page": base,
    "page at post 50,000 (cursor)": `${base}&created_at=lte.${at}&or=(created_at.lt.${at},and(created_at.eq.${at},id.lt.${deep.id}))`,
  };

  console.log(
    `\nFeed page of 20 from a room with ${postCount.toLocaleString("en")} posts, GET /rest/v1/posts (author embedded), ${runs} sequential requests each, member and service role interleaved:`,
  );
  for (const [name, url] of Object.entries(pages)) {
    const { member, service } = await timeRequests(url, { member: asMember, service: asService });
    console.log(`  ${name}:`);
    console.log(`    member (RLS)      p50 ${member.p50.toFixed(2)} ms   p99 ${member.p99.toFixed(2)} ms   (goal p99 < 25 ms)`);
    console.log(`    service role      p50 ${service.p50.toFixed(2)} ms   p99 ${service.p99.toFixed(2)} ms`);
    console.log(
      `    RLS overhead      ${(member.p50 / service.p50).toFixed(2)}× at p50, ${(member.p99 / service.p99).toFixed(2)}× at p99   (goal ≤ 1.3×)`,
    );
  }
}

await main();

// The heat strip's read (public.post_heat) through the real stack at 10,000 comments: what each
// caller gets through /rest/v1/rpc, that its plan reads the post's comments and reactions by their
// indexes (auto_explain of the function's own statement), and bad input answered plainly.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import pg from "pg";
import { getPostHeat, heatParts, hotspots } from "../../lib/moments/heat";
import { adminQuery, anonClient, databaseUrl } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

const comments = 10_000;
let owner: TestUser, member: TestUser, outsider: TestUser;
let room: { id: string; slug: string };
let postId: string;
let expected: { comments: number; reactions: number };

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all([signedInUser("heat-owner"), signedInUser("heat-member"), signedInUser("heat-outsider")]);
  room = await createRoom(owner.id, "gated");
  await addMember(room.id, member.id);
  const posts = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds)
     select $1, $2, 'Heat ' || i, 'embed', 'https://vimeo.com/76979871', 3600 from generate_series(1, 6) i returning id`,
    [room.id, member.id],
  );
  postId = posts[0].id;
  // 10,000 comments on the post (one in twenty general), 2,000 on each of five others, and up to
  // three reactions each; written without their triggers' broadcasts, the copied columns as the
  // triggers would write them.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    await client.query(
      `insert into public.moments (post_id, room_id, author_id, at_seconds, body)
       select case when i <= $4 then $1::uuid else ($5::uuid[])[1 + i % 5] end, $2, $3,
              case when i % 20 = 0 then null else round(((i * 7919) % 3600 + (i % 10) / 10.0)::numeric, 1) end, 'Comment ' || i
       from generate_series(1, $4 + 10000) i`,
      [postId, room.id, member.id, comments, posts.slice(1).map((post) => post.id)],
    );
    await client.query(
      `insert into public.reactions (moment_id, post_id, room_id, user_id, emoji)
       select m.id, m.post_id, m.room_id, u, e
       from (select id, post_id, room_id, row_number() over (order by id) as n from public.moments where room_id = $1) m
       cross join lateral (select unnest(array[$2::uuid, $3::uuid, $4::uuid]) as u, unnest(array['🔥', '❤️', '👏']) as e limit (m.n % 4)) r`,
      [room.id, owner.id, member.id, outsider.id],
    );
    await client.query("commit");
  } finally {
    await client.end();
  }
  await adminQuery("analyze public.moments");
  await adminQuery("analyze public.reactions");
  const [counts] = await adminQuery<{ comments: number; reactions: number }>(
    `select (select count(*)::int from public.moments where post_id = $1 and at_seconds is not null) as comments,
            (select count(*)::int from public.reactions r join public.moments m on m.id = r.moment_id where m.post_id = $1 and m.at_seconds is not null) as reactions`,
    [postId],
  );
  expected = counts;
}, 120_000);

afterAll(async () => {
  if (room) await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, member, outsider);
});

describe("post_heat at 10,000 comments", () => {
  test("a member gets every timed comment and reaction, in parts along the media, with three hot moments", async () => {
    expect(expected.comments).toBe(9500);
    const parts = await getPostHeat(member.client, postId);
    expect(parts).not.toBeNull();
    expect(parts!.length).toBe(heatParts);
    expect(parts!.reduce((sum, part) => sum + part.comments, 0)).toBe(expected.comments);
    expect(parts!.reduce((sum, part) => sum + part.reactions, 0)).toBe(expected.reactions);
    expect(parts![0].from).toBe(0);
    expect(parts!.at(-1)!.to).toBe(3600);
    const hot = hotspots(parts!);
    expect(hot.map((part) => part.hot)).toEqual([1, 2, 3]);
    for (const part of hot) {
      expect(part.peak).toBeGreaterThanOrEqual(part.from);
      expect(part.peak).toBeLessThan(part.to);
    }
  });

  test("someone who may not read the gated room gets nothing, signed in or not", async () => {
    expect(await getPostHeat(outsider.client, postId)).toEqual([]);
    expect(await getPostHeat(anonClient(), postId)).toEqual([]);
  });

  test("its plan reads the post's comments and reactions through their indexes", async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const plans: string[] = [];
    client.on("notice", (notice) => plans.push(notice.message ?? ""));
    try {
      await client.query("load 'auto_explain'");
      await client.query(
        "set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_analyze = on",
      );
      await client.query("begin");
      await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: member.id, role: "authenticated" })]);
      await client.query("set local role authenticated");
      const { rows } = await client.query("select * from public.post_heat($1, 48)", [postId]);
      await client.query("rollback");
      expect(rows.length).toBe(48);
    } finally {
      await client.end();
    }
    const plan = plans.find((text) => text.includes("with timed as")) ?? "";
    expect(plan).toContain("moments_post_timeline_idx");
    expect(plan).toContain("reactions_post_moment_idx");
    expect(plan).not.toMatch(/Seq Scan on (moments|reactions)/);
    expect(plan).not.toContain("JIT");
  });

  test("bad input: a part count out of range is refused in words; an unknown post has no heat", async () => {
    const refused = await member.client.rpc("post_heat", { post_id: postId, buckets: 0 });
    expect(refused.error?.code).toBe("22023");
    expect(refused.error?.message).toBe("A heat strip has between 1 and 200 parts");
    expect(await getPostHeat(member.client, "00000000-0000-4000-8000-000000000000")).toEqual([]);
  });
});

// /rest/v1 reads as PostgREST answers them, driven with the real supabase-js (and raw fetch where
// supabase-js hides the HTTP details): columns, filters, order, ranges, counts, embeds, formats, RLS.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFixture, type Fixture } from "./rest-fixture.ts";

let f: Fixture;
let a: string;
let p: string;
let tg: string;

beforeAll(async () => {
  f = await createFixture("fx_rest_read");
  ({ authors: a, posts: p, tags: tg } = f.t);
});
afterAll(async () => {
  await f?.teardown();
});

const ids = (rows: { id: number }[] | null) => (rows ?? []).map((row) => row.id);

describe("select", () => {
  test("columns, in the order asked, with exact values", async () => {
    const { data, error, status } = await f.anon.from(a).select("name, age, tags").order("id");
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { name: "Alice", age: 34, tags: ["music", "audio"] },
      { name: "Bob", age: 41, tags: ["video"] },
      { name: "Carol O'Hara", age: 29, tags: [] },
      { name: "Dan", age: null, tags: ["music"] },
    ]);
  });

  test("* returns every column with Postgres' JSON rendering", async () => {
    const { data } = await f.anon.from(a).select("*").eq("id", 1).single();
    expect(data).toEqual({
      id: 1,
      user_id: f.users.alice,
      name: "Alice",
      bio: "Writes about sound",
      age: 34,
      tags: ["music", "audio"],
      meta: { city: "Lyon", langs: ["fr", "en"], score: 7 },
      active: "[2010,2020)",
      mentor_id: null,
      created_at: "2026-01-01T00:00:00+00:00",
    });
  });

  test("aliases, casts and JSON paths (-> keeps JSON, ->> gives text, the last key names the column)", async () => {
    const { data, error } = await f.anon
      .from(a)
      .select("who:name, age::text, meta->>city, first_lang:meta->langs->0, meta->score")
      .in("id", [1, 3])
      .order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { who: "Alice", age: "34", city: "Lyon", first_lang: "fr", score: 7 },
      { who: "Carol O'Hara", age: "29", city: null, first_lang: null, score: null },
    ]);
  });

  test("computed fields (functions of the row type) can be selected, filtered and ordered", async () => {
    const label = `${f.prefix}_label`;
    const res = await f.rest(`/${a}?select=id,${label}&${label}=like.*(?)&order=${label}.desc`);
    expect(await res.json()).toEqual([{ id: 4, [label]: "Dan (?)" }]);
    const { data } = await f.anon.from(a).select(`name, ${label}`).in("id", [1, 3]).order(label);
    expect(data).toEqual([
      { name: "Alice", [label]: "Alice (34)" },
      { name: "Carol O'Hara", [label]: "Carol O'Hara (29)" },
    ]);
  });

  test("the app's profile read: .eq().single() and .maybeSingle()", async () => {
    const single = await f.anon.from(a).select("name, bio").eq("id", 2).single();
    expect(single).toMatchObject({ data: { name: "Bob", bio: null }, error: null, status: 200 });
    const none = await f.anon.from(a).select("name").eq("name", "nobody").maybeSingle();
    expect(none).toMatchObject({ data: null, error: null, status: 200 });
    const one = await f.anon.from(a).select("name").eq("name", "Dan").maybeSingle();
    expect(one.data).toEqual({ name: "Dan" });
  });

  test(".single() with zero or many rows is PGRST116 with 406", async () => {
    const zero = await f.anon.from(a).select("name").eq("id", 99).single();
    expect(zero.status).toBe(406);
    expect(zero.error).toEqual({
      code: "PGRST116",
      details: "The result contains 0 rows",
      hint: null,
      message: "Cannot coerce the result to a single JSON object",
    });
    const many = await f.anon.from(a).select("name").single();
    expect(many.status).toBe(406);
    expect(many.error?.details).toBe("The result contains 4 rows");
  });

  test("the object media type sets its Content-Type", async () => {
    const res = await f.rest(`/${a}?select=name&id=eq.1`, { headers: { Accept: "application/vnd.pgrst.object+json" } });
    expect(res.headers.get("content-type")).toBe("application/vnd.pgrst.object+json; charset=utf-8");
    expect(await res.json()).toEqual({ name: "Alice" });
  });
});

describe("filters", () => {
  test("comparison operators", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().eq("age", 34)).data)).toEqual([1]);
    expect(ids((await q().neq("age", 34)).data)).toEqual([2, 3]);
    expect(ids((await q().gt("age", 34)).data)).toEqual([2]);
    expect(ids((await q().gte("age", 34)).data)).toEqual([1, 2]);
    expect(ids((await q().lt("age", 34)).data)).toEqual([3]);
    expect(ids((await q().lte("age", 34)).data)).toEqual([1, 3]);
    expect(ids((await q().filter("age", "isdistinct", 34)).data)).toEqual([2, 3, 4]);
  });

  test("pattern operators: like, ilike (with * or %), match, imatch", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().like("name", "%a%")).data)).toEqual([3, 4]);
    expect(ids((await q().like("name", "*a*")).data)).toEqual([3, 4]);
    expect(ids((await q().ilike("name", "a%")).data)).toEqual([1]);
    expect(ids((await q().filter("name", "match", "^[AB]")).data)).toEqual([1, 2]);
    expect(ids((await q().filter("name", "imatch", "^d")).data)).toEqual([4]);
  });

  test("is, in, not", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().is("age", null)).data)).toEqual([4]);
    expect(ids((await q().not("age", "is", null)).data)).toEqual([1, 2, 3]);
    expect(ids((await q().in("name", ["Alice", "Carol O'Hara", "a,b"])).data)).toEqual([1, 3]);
    expect(ids((await q().not("name", "in", '("Alice","Bob")')).data)).toEqual([3, 4]);
    expect(ids((await q().in("id", [])).data)).toEqual([]);
    const { data } = await f.anon.from(p).select("id").is("published", false).order("id");
    expect(ids(data)).toEqual([]); // anon sees published posts only
  });

  test("array, range and JSON containment: cs, cd, ov, sl, sr, nxr, nxl, adj", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().contains("tags", ["music"])).data)).toEqual([1, 4]);
    expect(ids((await q().containedBy("tags", ["music", "audio", "x"])).data)).toEqual([1, 3, 4]);
    expect(ids((await q().overlaps("tags", ["video", "audio"])).data)).toEqual([1, 2]);
    expect(ids((await q().contains("meta", { city: "Lyon" })).data)).toEqual([1, 4]);
    expect(ids((await q().rangeLt("active", "[2006,2007)")).data)).toEqual([3]);
    expect(ids((await q().rangeGt("active", "[2006,2007)")).data)).toEqual([1, 2]);
    expect(ids((await q().rangeGte("active", "[2012,2013)")).data)).toEqual([2]);
    expect(ids((await q().rangeLte("active", "[2012,2013)")).data)).toEqual([3]);
    expect(ids((await q().rangeAdjacent("active", "[2005,2010)")).data)).toEqual([1, 3]);
    expect(ids((await q().overlaps("active", "[2019,2021)")).data)).toEqual([1, 2]);
  });

  test("full-text search: fts, plfts, phfts, wfts, with a language", async () => {
    const q = () => f.anon.from(p).select("id").order("id");
    expect(ids((await q().textSearch("search", "cat & mat")).data)).toEqual([1]);
    expect(ids((await q().textSearch("search", "cat", { config: "english" })).data)).toEqual([1, 4]);
    expect(ids((await q().textSearch("search", "the cat", { type: "plain", config: "english" })).data)).toEqual([1, 4]);
    expect(ids((await q().textSearch("search", "cat sat", { type: "phrase", config: "english" })).data)).toEqual([1]);
    expect(ids((await q().textSearch("search", "cat -mat", { type: "websearch", config: "english" })).data)).toEqual([4]);
  });

  test("or / and trees, nested and negated", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().or("age.gt.40,name.eq.Dan")).data)).toEqual([2, 4]);
    expect(ids((await q().or('and(age.gte.30,age.lt.40),name.eq."Carol O\'Hara"')).data)).toEqual([1, 3]);
    expect(ids((await q().or("tags.cs.{video},name.in.(Dan,Alice)")).data)).toEqual([1, 2, 4]);
    const res = await f.rest(`/${a}?select=id&not.or=(age.is.null,age.gt.40)&order=id`);
    expect(ids(await res.json())).toEqual([1, 3]);
    const and = await f.rest(`/${a}?select=id&and=(age.gt.20,or(name.like.A*,name.like.C*))&order=id`);
    expect(ids(await and.json())).toEqual([1, 3]);
  });

  test("any / all modifiers", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().filter("name", "like(any)", "{A*,D*}")).data)).toEqual([1, 4]);
    expect(ids((await q().filter("name", "like(all)", "{*a*,*r*}")).data)).toEqual([3]);
    expect(ids((await q().filter("age", "eq(any)", "{29,41}")).data)).toEqual([2, 3]);
    expect(ids((await q().filter("age", "gt(all)", "{30,40}")).data)).toEqual([2]);
  });

  test("filters on JSON paths", async () => {
    const q = () => f.anon.from(a).select("id").order("id");
    expect(ids((await q().eq("meta->>city", "Lyon")).data)).toEqual([1, 4]);
    expect(ids((await q().gt("meta->score", 5)).data)).toEqual([1]);
    expect(ids((await q().eq("meta->langs->>1", "en")).data)).toEqual([1]);
  });

  test("+ and other reserved characters in values survive URL encoding", async () => {
    await f.sql(`insert into public.${a} (id, name) values (50, 'A+B & C, (d)')`);
    const { data } = await f.anon.from(a).select("id").eq("name", "A+B & C, (d)");
    expect(ids(data)).toEqual([50]);
    const { data: listed } = await f.anon.from(a).select("id").in("name", ["A+B & C, (d)"]);
    expect(ids(listed)).toEqual([50]);
    await f.sql(`delete from public.${a} where id = 50`);
  });
});

describe("order, limit, offset, Range and counts", () => {
  test("order with direction and nulls placement, on several columns", async () => {
    const desc = await f.anon.from(a).select("id").order("age", { ascending: false });
    expect(ids(desc.data)).toEqual([4, 2, 1, 3]); // desc puts nulls first, as Postgres does
    const nullsLast = await f.anon.from(a).select("id").order("age", { ascending: false, nullsFirst: false });
    expect(ids(nullsLast.data)).toEqual([2, 1, 3, 4]);
    const multi = await f.anon.from(a).select("id").order("meta->>city", { ascending: true }).order("id", { ascending: false });
    expect(ids(multi.data)).toEqual([4, 1, 2, 3]);
  });

  test(".range() and .limit() set limit/offset; Content-Range reports the window", async () => {
    const res = await f.rest(`/${a}?select=id&order=id&offset=1&limit=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-range")).toBe("1-2/*");
    expect(ids(await res.json())).toEqual([2, 3]);
    const { data } = await f.anon.from(a).select("id").order("id").range(2, 3);
    expect(ids(data)).toEqual([3, 4]);
  });

  test("the Range header works like limit/offset", async () => {
    const res = await f.rest(`/${a}?select=id&order=id`, { headers: { Range: "1-2", "Range-Unit": "items" } });
    expect(res.headers.get("content-range")).toBe("1-2/*");
    expect(ids(await res.json())).toEqual([2, 3]);
  });

  test("count=exact: the total after the slash, 206 for a partial window, HEAD without a body", async () => {
    const partial = await f.anon.from(a).select("id", { count: "exact" }).order("id").range(0, 1);
    expect(partial).toMatchObject({ count: 4, status: 206 });
    const full = await f.rest(`/${a}?select=id`, { headers: { Prefer: "count=exact" } });
    expect(full.status).toBe(200);
    expect(full.headers.get("content-range")).toBe("0-3/4");
    expect(full.headers.get("preference-applied")).toBe("count=exact");
    const head = await f.anon.from(a).select("*", { count: "exact", head: true }).gt("age", 30);
    expect(head).toMatchObject({ count: 2, data: null, status: 200 });
    const raw = await f.rest(`/${a}?age=gt.30`, { method: "HEAD", headers: { Prefer: "count=exact" } });
    expect(raw.headers.get("content-range")).toBe("0-1/2");
    expect(await raw.text()).toBe("");
  });

  test("count=planned uses the planner's estimate; count=estimated is exact below max_rows", async () => {
    await f.sql(`analyze public.${a}`);
    const planned = await f.rest(`/${a}?select=id&limit=1`, { headers: { Prefer: "count=planned" } });
    expect(planned.headers.get("preference-applied")).toBe("count=planned");
    expect(planned.headers.get("content-range")).toMatch(/^0-0\/\d+$/);
    expect(Number(planned.headers.get("content-range")?.split("/")[1])).toBeGreaterThan(0);
    const estimated = await f.anon.from(a).select("id", { count: "estimated" }).gt("age", 30);
    expect(estimated).toMatchObject({ count: 2, status: 200 });
  });

  test("an empty result says */0 with a count and */* without", async () => {
    const none = await f.rest(`/${a}?id=eq.99`, { headers: { Prefer: "count=exact" } });
    expect(none.headers.get("content-range")).toBe("*/0");
    expect(await none.json()).toEqual([]);
    const noCount = await f.rest(`/${a}?id=eq.99`);
    expect(noCount.headers.get("content-range")).toBe("*/*");
  });

  test("a negative limit is 416 PGRST103", async () => {
    const res = await f.rest(`/${a}?limit=-1`);
    expect(res.status).toBe(416);
    expect(await res.json()).toEqual({
      code: "PGRST103",
      details: "Limit should be greater than or equal to zero.",
      hint: null,
      message: "Requested range not satisfiable",
    });
  });

  test("an offset past the end with a count is 416 PGRST103", async () => {
    const res = await f.rest(`/${a}?offset=10`, { headers: { Prefer: "count=exact" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBeNull();
    expect(await res.json()).toEqual({
      code: "PGRST103",
      details: "An offset of 10 was requested, but there are only 4 rows.",
      hint: null,
      message: "Requested range not satisfiable",
    });
  });
});

describe("embedded resources", () => {
  test("many-to-one as an object, disambiguated by column hint or constraint name", async () => {
    const byColumn = await f.anon.from(p).select(`id, author:${a}!author_id(name)`).order("id");
    expect(byColumn.data).toEqual([
      { id: 1, author: { name: "Alice" } },
      { id: 3, author: { name: "Bob" } },
      { id: 4, author: { name: "Carol O'Hara" } },
    ]);
    const byConstraint = await f.anon.from(p).select(`id, editor:${a}!${p}_editor_id_fkey(name)`).order("id");
    expect(byConstraint.data).toEqual([
      { id: 1, editor: { name: "Carol O'Hara" } },
      { id: 3, editor: { name: "Alice" } },
      { id: 4, editor: null },
    ]);
  });

  test("one-to-many as an array, filtered by RLS of the embedded table", async () => {
    const anon = await f.anon.from(a).select(`name, posts:${p}!author_id(id, title)`).order("id").limit(2);
    expect(anon.data).toEqual([
      { name: "Alice", posts: [{ id: 1, title: "First light" }] },
      { name: "Bob", posts: [{ id: 3, title: "Fjord sounds" }] },
    ]);
    const alice = await f.alice.from(a).select(`name, posts:${p}!author_id(id)`).eq("id", 1).single();
    expect(alice.data).toEqual({ name: "Alice", posts: [{ id: 1 }, { id: 2 }] });
  });

  test("many-to-many through the join table", async () => {
    const { data } = await f.anon.from(p).select(`id, ${tg}(name)`).order("id");
    expect(data).toEqual([
      { id: 1, [tg]: [{ name: "audio" }, { name: "craft" }] },
      { id: 3, [tg]: [{ name: "audio" }, { name: "video" }] },
      { id: 4, [tg]: [{ name: "craft" }] },
    ]);
  });

  test("embedded filters, order and limit apply inside the embed; !inner filters the parent", async () => {
    const { data } = await f.service
      .from(a)
      .select(`id, posts:${p}!author_id(id)`)
      .order("id")
      .gt("posts.id", 1)
      .order("id", { referencedTable: "posts", ascending: false })
      .limit(1, { referencedTable: "posts" });
    expect(data).toEqual([
      { id: 1, posts: [{ id: 2 }] },
      { id: 2, posts: [{ id: 5 }] },
      { id: 3, posts: [{ id: 4 }] },
      { id: 4, posts: [] },
    ]);
    const orInside = await f.service
      .from(a)
      .select(`id, posts:${p}!author_id(id)`)
      .or("id.eq.2,title.like.Cut*", { referencedTable: "posts" })
      .in("id", [1, 2, 3])
      .order("id");
    expect(orInside.data).toEqual([
      { id: 1, posts: [{ id: 2 }] },
      { id: 2, posts: [] },
      { id: 3, posts: [{ id: 4 }] },
    ]);
    const inner = await f.anon.from(a).select(`id, posts:${p}!author_id!inner(title)`).eq("posts.title", "Fjord sounds");
    expect(inner.data).toEqual([{ id: 2, posts: [{ title: "Fjord sounds" }] }]);
    const left = await f.anon.from(a).select(`id, posts:${p}!author_id!left(id)`).order("id");
    expect(ids(left.data as unknown as { id: number }[])).toEqual([1, 2, 3, 4]);
  });

  test("null filters on an embed (posts=not.is.null) and related order on a to-one embed", async () => {
    const res = await f.rest(`/${a}?select=id,posts:${p}!author_id(id)&posts=not.is.null&order=id`);
    expect(ids(await res.json())).toEqual([1, 2, 3]);
    const without = await f.rest(`/${a}?select=id,posts:${p}!author_id(id)&posts=is.null`);
    expect(ids(await without.json())).toEqual([4]);
    const ordered = await f.rest(`/${p}?select=id,author:${a}!author_id(name)&order=author(name).desc`);
    expect(ids(await ordered.json())).toEqual([4, 3, 1]);
  });

  test("related(count) counts the related rows the caller may see", async () => {
    const anon = await f.anon.from(a).select(`name, posts:${p}!author_id(count)`).order("id");
    expect(anon.data).toEqual([
      { name: "Alice", posts: [{ count: 1 }] },
      { name: "Bob", posts: [{ count: 1 }] },
      { name: "Carol O'Hara", posts: [{ count: 1 }] },
      { name: "Dan", posts: [{ count: 0 }] },
    ]);
    const alice = await f.alice.from(a).select(`name, posts:${p}!author_id(count)`).eq("id", 1).single();
    expect(alice.data).toEqual({ name: "Alice", posts: [{ count: 2 }] });
  });

  test("self-references: the column names the many-to-one, table!column the one-to-many", async () => {
    const res = await f.rest(`/${a}?select=name,mentor:mentor_id(name),mentees:${a}!mentor_id(name)&id=in.(1,2)&order=id&mentees.order=id`);
    expect(await res.json()).toEqual([
      { name: "Alice", mentor: null, mentees: [{ name: "Bob" }, { name: "Carol O'Hara" }] },
      { name: "Bob", mentor: { name: "Alice" }, mentees: [] },
    ]);
  });

  test("spread flattens a to-one embed into the parent", async () => {
    const { data } = await f.anon.from(p).select(`id, ...${a}!author_id(author_name:name, age)`).order("id");
    expect(data).toEqual([
      { id: 1, author_name: "Alice", age: 34 },
      { id: 3, author_name: "Bob", age: 41 },
      { id: 4, author_name: "Carol O'Hara", age: 29 },
    ]);
  });

  test("nested embeds (posts → tags, posts → author)", async () => {
    const { data } = await f.anon
      .from(a)
      .select(`name, posts:${p}!author_id(title, ${tg}(name), editor:${a}!editor_id(name))`)
      .eq("id", 2)
      .single();
    expect(data).toEqual({
      name: "Bob",
      posts: [{ title: "Fjord sounds", [tg]: [{ name: "audio" }, { name: "video" }], editor: { name: "Alice" } }],
    });
  });

  test("the app's .select('*, rooms(*)') shape: star plus an embed", async () => {
    const { data } = await f.anon.from(p).select(`*, ${a}!author_id(*)`).eq("id", 3).single();
    expect(data).toMatchObject({ id: 3, title: "Fjord sounds", rating: 3, [a]: { id: 2, name: "Bob" } });
  });
});

describe("formats, views and RLS", () => {
  test("csv: a header line, then rows in Postgres' quoting", async () => {
    const { data, status } = await f.anon.from(a).select("id,name,bio").order("id").csv();
    expect(status).toBe(200);
    expect(data).toBe('id,name,bio\n1,Alice,"Writes about sound"\n2,Bob,\n3,"Carol O\'Hara","Edits, sometimes, things"\n4,Dan,Quiet');
    const res = await f.rest(`/${a}?select=id&id=eq.1`, { headers: { Accept: "text/csv" } });
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  });

  test("nulls=stripped drops null fields", async () => {
    const res = await f.rest(`/${a}?select=id,bio&id=eq.2`, { headers: { Accept: "application/vnd.pgrst.array+json;nulls=stripped" } });
    expect(await res.json()).toEqual([{ id: 2 }]);
  });

  test("views are readable like tables (security_invoker keeps RLS)", async () => {
    const anon = await f.anon.from(f.t.published).select("id, title").order("id");
    expect(anon.data).toEqual([
      { id: 1, title: "First light" },
      { id: 3, title: "Fjord sounds" },
      { id: 4, title: "Cutting room" },
    ]);
  });

  test("relationships carry through views (view → table and table → view)", async () => {
    const fromView = await f.anon.from(f.t.published).select(`title, author:${a}(name)`).eq("id", 3).single();
    expect(fromView.data).toEqual({ title: "Fjord sounds", author: { name: "Bob" } });
    const toView = await f.anon.from(a).select(`name, ${f.t.published}(title)`).eq("id", 1).single();
    expect(toView.data).toEqual({ name: "Alice", [f.t.published]: [{ title: "First light" }] });
  });

  test("each caller sees what the policies allow", async () => {
    expect(ids((await f.anon.from(p).select("id").order("id")).data)).toEqual([1, 3, 4]);
    expect(ids((await f.alice.from(p).select("id").order("id")).data)).toEqual([1, 2, 3, 4]);
    expect(ids((await f.bob.from(p).select("id").order("id")).data)).toEqual([1, 3, 4, 5]);
    expect(ids((await f.service.from(p).select("id").order("id")).data)).toEqual([1, 2, 3, 4, 5]);
  });

  test("Accept-Profile must name an exposed schema", async () => {
    const res = await f.rest(`/${a}`, { headers: { "Accept-Profile": "auth" } });
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      code: "PGRST106",
      details: null,
      hint: "Only the following schemas are exposed: public, graphql_public",
      message: "Invalid schema: auth",
    });
  });
});

// schema reloads queue behind every other suite's fixture DDL on a busy machine
describe("schema cache", { timeout: 180_000 }, () => {
  test("NOTIFY pgrst, 'reload schema' picks up DDL, including a changed column type under a prepared statement", async () => {
    const byAge = () => f.rest(`/${a}?select=id&age=eq.34`);
    expect(await (await byAge()).json()).toEqual([{ id: 1 }]);
    expect(await (await byAge()).json()).toEqual([{ id: 1 }]);
    const waitFor = async (check: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 60_000; !(await check()) && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      await f.sql(`alter table public.${a} alter column age type text using age::text, add column nickname text default 'nick'`);
      await f.sql(`create function public.${f.prefix}_reloaded() returns int language sql as 'select 1'`);
      await f.sql("notify pgrst, 'reload schema'");
      // Only the schema cache knows functions: once this answers, the reload has happened.
      await waitFor(async () => (await f.rest(`/rpc/${f.prefix}_reloaded`)).status === 200);
      expect(await (await f.rest(`/${a}?select=id,age,nickname&id=eq.1`)).json()).toEqual([{ id: 1, age: "34", nickname: "nick" }]);
      expect(await (await byAge()).json()).toEqual([{ id: 1 }]);
    } finally {
      await f.sql(`alter table public.${a} alter column age type int using age::int, drop column nickname`);
      await f.sql(`drop function public.${f.prefix}_reloaded()`);
      await f.sql("notify pgrst, 'reload schema'");
      await waitFor(async () => (await f.rest(`/rpc/${f.prefix}_reloaded`)).status === 404);
    }
    expect(await (await f.rest(`/${a}?select=age&id=eq.1`)).json()).toEqual([{ age: 34 }]);
  });

  test("DDL reloads the cache by itself (the base schema's event triggers), as a migration applied to a running stack needs", async () => {
    const table = `${f.prefix}_migrated`;
    const appears = async () => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        if ((await f.rest(`/${table}?select=id`)).status === 200) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    };
    expect((await f.rest(`/${table}`)).status).toBe(404);
    try {
      await f.sql(`create table public.${table} (id int primary key); grant select on public.${table} to anon`);
      expect(await appears()).toBe(true);
    } finally {
      await f.sql(`drop table if exists public.${table}`);
    }
  });
});

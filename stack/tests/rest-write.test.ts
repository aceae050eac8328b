// /rest/v1 writes as PostgREST answers them: insert (single, bulk, columns, missing=default),
// upsert, update, delete, return preferences, Location, max-affected, and their errors under RLS.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFixture, type Fixture } from "./rest-fixture.ts";

let f: Fixture;
let a: string;
let p: string;

beforeAll(async () => {
  f = await createFixture("fx_rest_write");
  ({ authors: a, posts: p } = f.t);
});
afterAll(async () => {
  await f?.teardown();
});

const row = async (sql: string, values: unknown[] = []) => (await f.sql(sql, values)).rows;

describe("insert", () => {
  test("return=minimal (supabase-js' default): 201, no body, the row is there", async () => {
    const res = await f.alice.from(a).insert({ name: "Minimal", user_id: f.users.alice });
    expect(res).toMatchObject({ status: 201, data: null, error: null });
    expect(await row(`select name, tags, meta from public.${a} where name = 'Minimal'`)).toEqual([{ name: "Minimal", tags: [], meta: {} }]);
  });

  test("with .select(): 201 and the inserted row, defaults filled by Postgres", async () => {
    const res = await f.alice.from(a).insert({ name: "Shown", user_id: f.users.alice, age: 20 }).select("name, age, tags, bio").single();
    expect(res).toMatchObject({ status: 201, error: null, data: { name: "Shown", age: 20, tags: [], bio: null } });
    const raw = await f.rest(`/${a}?select=name`, {
      method: "POST",
      token: f.tokens.alice,
      headers: { "Content-Type": "application/json", Prefer: "return=representation" },
      body: JSON.stringify({ name: "Raw", user_id: f.users.alice }),
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get("preference-applied")).toBe("return=representation");
    expect(raw.headers.get("content-range")).toBe("*/*");
    expect(await raw.json()).toEqual([{ name: "Raw" }]);
  });

  test("bulk insert: columns= from every object; missing keys are null, or defaults with missing=default", async () => {
    const nulls = await f.alice
      .from(a)
      .insert([
        { name: "Bulk1", user_id: f.users.alice },
        { name: "Bulk2", user_id: f.users.alice, tags: ["x"] },
      ])
      .select("name, tags");
    expect(nulls.status).toBe(400);
    expect(nulls.error).toMatchObject({
      code: "23502",
      message: `null value in column "tags" of relation "${a}" violates not-null constraint`,
    });
    const defaults = await f.alice
      .from(a)
      .insert(
        [
          { name: "Bulk1", user_id: f.users.alice },
          { name: "Bulk2", user_id: f.users.alice, tags: ["x"] },
        ],
        { defaultToNull: false },
      )
      .select("name, tags");
    expect(defaults).toMatchObject({
      status: 201,
      data: [
        { name: "Bulk1", tags: [] },
        { name: "Bulk2", tags: ["x"] },
      ],
    });
  });

  test("count=exact on a write reports the affected rows", async () => {
    const inserted = await f.service.from(f.t.tags).insert(
      [
        { id: 50, name: "fifty" },
        { id: 51, name: "fifty-one" },
      ],
      { count: "exact" },
    );
    expect(inserted).toMatchObject({ status: 201, count: 2 });
    const updated = await f.rest(`/${a}?id=in.(3,4)`, {
      method: "PATCH",
      headers: { apikey: (await import("./helpers/stack.ts")).serviceRoleKey, "Content-Type": "application/json", Prefer: "count=exact" },
      body: JSON.stringify({ bio: "counted" }),
    });
    expect(updated.status).toBe(204);
    expect(updated.headers.get("content-range")).toBe("0-1/2");
    const deleted = await f.service.from(f.t.tags).delete({ count: "exact" }).in("id", [50, 51]);
    expect(deleted).toMatchObject({ status: 204, count: 2 });
  });

  test("a default that calls auth.uid() sees the caller's claims", async () => {
    const { data } = await f.bob.from(f.t.notes).insert({ body: "mine" }).select("owner, body").single();
    expect(data).toEqual({ owner: f.users.bob, body: "mine" });
  });

  test("return=headers-only answers Location for the new row", async () => {
    const res = await f.rest(`/${f.t.tags}`, {
      method: "POST",
      headers: {
        apikey: (await import("./helpers/stack.ts")).serviceRoleKey,
        "Content-Type": "application/json",
        Prefer: "return=headers-only",
      },
      body: JSON.stringify({ id: 40, name: "located" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/${f.t.tags}?id=eq.40`);
    expect(await res.text()).toBe("");
    const generated = await f.rest(`/${a}`, {
      method: "POST",
      token: f.tokens.alice,
      headers: { "Content-Type": "application/json", Prefer: "return=headers-only" },
      body: JSON.stringify({ name: "Located", user_id: f.users.alice }),
    });
    const [{ id }] = (await f.sql(`select id::int from public.${a} where name = 'Located'`)).rows;
    expect(generated.headers.get("location")).toBe(`/${a}?id=eq.${id}`);
  });

  test("upsert merges on the primary key or on_conflict, or ignores duplicates", async () => {
    const merged = await f.service
      .from(f.t.tags)
      .upsert([
        { id: 1, name: "Audio" },
        { id: 20, name: "new" },
      ])
      .select();
    expect(merged).toMatchObject({
      status: 201,
      data: [
        { id: 1, name: "Audio" },
        { id: 20, name: "new" },
      ],
    });
    const ignored = await f.service
      .from(f.t.tags)
      .upsert(
        [
          { id: 1, name: "ignored" },
          { id: 21, name: "also new" },
        ],
        { ignoreDuplicates: true },
      )
      .select();
    expect(ignored.data).toEqual([{ id: 21, name: "also new" }]);
    const byName = await f.service.from(f.t.tags).upsert({ id: 2, name: "video" }, { onConflict: "name" }).select();
    expect(byName.data).toEqual([{ id: 2, name: "video" }]);
    expect(await row(`select name from public.${f.t.tags} where id = 1`)).toEqual([{ name: "Audio" }]);
    const res = await f.rest(`/${f.t.tags}?on_conflict=name`, {
      method: "POST",
      headers: {
        apikey: (await import("./helpers/stack.ts")).serviceRoleKey,
        "Content-Type": "application/json",
        Prefer: "resolution=merge-duplicates,return=representation",
      },
      body: JSON.stringify({ id: 2, name: "video" }),
    });
    expect(res.status).toBe(200); // an upsert that only updated answers 200, not 201
    expect(res.headers.get("preference-applied")).toBe("resolution=merge-duplicates, return=representation");
  });

  test("constraint errors: 23505 and 23503 are 409, 23502 and 22P02 are 400, with Postgres' detail", async () => {
    const dup = await f.alice.from(a).insert({ name: "Alice", user_id: f.users.alice });
    expect(dup.status).toBe(409);
    // With RLS on the table, Postgres leaves out the key detail (it could reveal hidden rows).
    expect(dup.error).toEqual({
      code: "23505",
      details: null,
      hint: null,
      message: `duplicate key value violates unique constraint "${a}_name_key"`,
    });
    const fk = await f.service.from(p).insert({ author_id: 999, title: "orphan" });
    expect(fk.status).toBe(409);
    expect(fk.error).toMatchObject({ code: "23503", details: `Key (author_id)=(999) is not present in table "${a}".` });
    const notNull = await f.service.from(p).insert({ author_id: 1 });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe("23502");
    const badType = await f.service.from(a).insert({ name: "Typed", age: "old" });
    expect(badType.status).toBe(400);
    expect(badType.error).toMatchObject({ code: "22P02", message: 'invalid input syntax for type integer: "old"' });
  });

  test("RLS and grants: 401 for anon, 403 for a signed-in user", async () => {
    const anon = await f.anon.from(a).insert({ name: "Sneaky" });
    expect(anon.status).toBe(401);
    expect(anon.error).toEqual({
      code: "42501",
      details: null,
      hint: null,
      message: `new row violates row-level security policy for table "${a}"`,
    });
    const other = await f.alice.from(a).insert({ name: "Impostor", user_id: f.users.bob });
    expect(other.status).toBe(403);
    expect(other.error?.code).toBe("42501");
    const noGrant = await f.anon.from(f.t.tags).insert({ id: 30, name: "nope" });
    expect(noGrant.status).toBe(401);
    expect(noGrant.error).toEqual({ code: "42501", details: null, hint: null, message: `permission denied for table ${f.t.tags}` });
  });

  test("unknown payload columns are PGRST204; bad JSON is PGRST102; keys must match in bulk", async () => {
    const unknown = await f.service.from(a).insert({ name: "X", nickname: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.error).toEqual({
      code: "PGRST204",
      details: null,
      hint: null,
      message: `Could not find the 'nickname' column of '${a}' in the schema cache`,
    });
    const bad = await f.rest(`/${a}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: "PGRST102", details: null, hint: null, message: "Empty or invalid json" });
    const mismatch = await f.rest(`/${a}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify([{ name: "a" }, { age: 1 }]),
    });
    expect(await mismatch.json()).toMatchObject({ code: "PGRST102", message: "All object keys must match" });
  });

  test("a body over the limit is refused with 413", async () => {
    const big = JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) });
    const res = await f.rest(`/${a}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("PGRST413");
  });
});

describe("PUT", () => {
  test("PUT upserts one row addressed by its primary key", async () => {
    const { serviceRoleKey } = await import("./helpers/stack.ts");
    const put = (id: number, body: unknown, query = `id=eq.${id}`) =>
      f.rest(`/${f.t.tags}?${query}`, {
        method: "PUT",
        headers: { apikey: serviceRoleKey, "Content-Type": "application/json", Prefer: "return=representation" },
        body: JSON.stringify(body),
      });
    const created = await put(70, { id: 70, name: "seventy" });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual([{ id: 70, name: "seventy" }]);
    const replaced = await put(70, { id: 70, name: "SEVENTY" });
    expect(await replaced.json()).toEqual([{ id: 70, name: "SEVENTY" }]);
    const wrongFilter = await put(70, { id: 70, name: "x" }, "name=eq.x");
    expect(wrongFilter.status).toBe(405);
    expect(await wrongFilter.json()).toEqual({
      code: "PGRST105",
      details: null,
      hint: null,
      message: "Filters must include all and only primary key columns with 'eq' operators",
    });
  });
});

describe("update and delete", () => {
  test("the app's profile update: .update().eq() changes only the caller's row", async () => {
    const mine = await f.alice.from(a).update({ bio: "updated" }).eq("id", 1);
    expect(mine).toMatchObject({ status: 204, error: null, data: null });
    const raw = await f.rest(`/${a}?id=in.(1,3)`, {
      method: "PATCH",
      token: f.tokens.alice,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ bio: "updated" }),
    });
    expect(raw.status).toBe(204);
    expect(raw.headers.get("content-range")).toBe("0-0/*");
    const theirs = await f.alice.from(a).update({ bio: "hijacked" }).eq("id", 2).select();
    expect(theirs).toMatchObject({ status: 200, data: [] });
    expect(await row(`select id::int, bio from public.${a} where id in (1, 2) order by id`)).toEqual([
      { id: 1, bio: "updated" },
      { id: 2, bio: null },
    ]);
  });

  test("update with representation, filters and embeds", async () => {
    const { data, status } = await f.alice
      .from(p)
      .update({ rating: 2 })
      .eq("author_id", 1)
      .select(`id, rating, author:${a}!author_id(name)`)
      .order("id");
    expect(status).toBe(200);
    expect(data).toEqual([
      { id: 1, rating: 2, author: { name: "Alice" } },
      { id: 2, rating: 2, author: { name: "Alice" } },
    ]);
  });

  test("max-affected with handling=strict rolls back and answers PGRST124", async () => {
    const res = await f.rest(`/${p}?author_id=eq.1`, {
      method: "PATCH",
      token: f.tokens.alice,
      headers: { "Content-Type": "application/json", Prefer: "handling=strict, max-affected=1" },
      body: JSON.stringify({ rating: 9 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "PGRST124",
      details: "The query affects 2 rows",
      hint: null,
      message: "Query result exceeds max-affected preference constraint",
    });
    expect(await row(`select count(*)::int as n from public.${p} where rating = 9`)).toEqual([{ n: 0 }]);
    const within = await f.rest(`/${p}?author_id=eq.1`, {
      method: "PATCH",
      token: f.tokens.alice,
      headers: { "Content-Type": "application/json", Prefer: "handling=strict, max-affected=2" },
      body: JSON.stringify({ rating: 9 }),
    });
    expect(within.status).toBe(204);
    expect(within.headers.get("preference-applied")).toBe("handling=strict, max-affected=2");
  });

  test("a singular update that touches several rows is 406 and rolled back", async () => {
    const res = await f.alice.from(p).update({ rating: 8 }).eq("author_id", 1).select().single();
    expect(res.status).toBe(406);
    expect(res.error?.code).toBe("PGRST116");
    expect(await row(`select count(*)::int as n from public.${p} where rating = 8`)).toEqual([{ n: 0 }]);
  });

  test("delete returns the deleted rows on request; RLS hides the rest", async () => {
    await f.sql(`insert into public.${p} (id, author_id, title) values (60, 2, 'to delete'), (61, 2, 'to keep')`);
    const denied = await f.alice.from(p).delete().eq("id", 60).select();
    expect(denied).toMatchObject({ status: 200, data: [] });
    const deleted = await f.bob.from(p).delete().eq("id", 60).select("id, title");
    expect(deleted).toMatchObject({ status: 200, data: [{ id: 60, title: "to delete" }] });
    const minimal = await f.bob.from(p).delete().eq("id", 61);
    expect(minimal.status).toBe(204);
    expect(await row(`select id from public.${p} where id in (60, 61)`)).toEqual([]);
  });

  test("PATCH with an invalid value is 400 with the Postgres error", async () => {
    const res = await f.service.from(a).update({ age: "many" }).eq("id", 1);
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: "22P02" });
  });
});

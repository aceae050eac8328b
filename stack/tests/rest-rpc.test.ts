// /rest/v1/rpc as PostgREST answers it: named arguments over POST and GET, scalar, composite and
// set-returning results with filters, a single unnamed json parameter, params=single-object,
// void, raised errors, and read-only GET.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFixture, type Fixture } from "./rest-fixture.ts";

let f: Fixture;
let fn: (name: string) => string;

beforeAll(async () => {
  f = await createFixture("fx_rest_rpc");
  fn = (name) => `${f.prefix}_${name}`;
});
afterAll(async () => {
  await f?.teardown();
});

describe("rpc", () => {
  test("a scalar function over POST and GET returns the bare JSON value", async () => {
    expect(await f.anon.rpc(fn("add"), { a: 2, b: 40 })).toMatchObject({ data: 42, status: 200, error: null });
    expect(await f.anon.rpc(fn("add"), { a: 1, b: 1 }, { get: true })).toMatchObject({ data: 2, status: 200 });
    expect(await f.anon.rpc(fn("hello"))).toMatchObject({ data: "hello", status: 200 });
    const res = await f.rest(`/rpc/${fn("add")}?a=3&b=4`);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe("7");
  });

  test("set-returning functions take select, filters, order, limit and count", async () => {
    const { data } = await f.anon.rpc(fn("older_than"), { min_age: 30 }).select("id, name");
    expect(data).toEqual([
      { id: 1, name: "Alice" },
      { id: 2, name: "Bob" },
    ]);
    const filtered = await f.anon
      .rpc(fn("older_than"), { min_age: 0 }, { count: "exact" })
      .select("name")
      .lt("age", 40)
      .order("age", { ascending: false })
      .limit(1);
    expect(filtered).toMatchObject({ data: [{ name: "Alice" }], count: 2, status: 206 });
    const embedded = await f.anon.rpc(fn("older_than"), { min_age: 40 }).select(`name, posts:${f.t.posts}!author_id(title)`);
    expect(embedded.data).toEqual([{ name: "Bob", posts: [{ title: "Fjord sounds" }] }]);
    expect((await f.anon.rpc(fn("series"), { n: 3 })).data).toEqual([1, 2, 3]);
    expect((await f.anon.rpc(fn("pairs"), { n: 2 })).data).toEqual([
      { num: 1, label: "n1" },
      { num: 2, label: "n2" },
    ]);
  });

  test("a function returning one composite answers an object; single() and GET work too", async () => {
    const { data } = await f.anon.rpc(fn("author_by_name"), { author_name: "Dan" }).select("id, name");
    expect(data).toEqual({ id: 4, name: "Dan" });
    const viaGet = await f.anon.rpc(fn("author_by_name"), { author_name: "Bob" }, { get: true }).select("age");
    expect(viaGet.data).toEqual({ age: 41 });
  });

  test("array arguments from JSON arrays (POST) and array literals (GET)", async () => {
    expect((await f.anon.rpc(fn("sum"), { nums: [1, 2, 3] })).data).toBe(6);
    expect((await f.anon.rpc(fn("sum"), { nums: [4, 5] }, { get: true })).data).toBe(9);
  });

  test("a single unnamed jsonb parameter gets the whole body; params=single-object likewise", async () => {
    expect((await f.anon.rpc(fn("echo"), { any: ["shape"], n: 1 })).data).toEqual({ any: ["shape"], n: 1 });
    const res = await f.rest(`/rpc/${fn("keys")}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Prefer: "params=single-object" },
      body: JSON.stringify({ x: 1, y: 2, z: 3 }),
    });
    expect(await res.json()).toBe(3);
  });

  test("void functions answer 204; the function runs as the caller with the request's settings", async () => {
    const bump = await f.alice.rpc(fn("bump"), { author_id: 1 });
    expect(bump).toMatchObject({ status: 204, data: null, error: null });
    expect((await f.sql(`select age from public.${f.t.authors} where id = 1`)).rows).toEqual([{ age: 35 }]);
    const who = await f.bob.rpc(fn("whoami"));
    expect(who.data).toEqual({
      uid: f.users.bob,
      role: "authenticated",
      method: "POST",
      path: `/rpc/${fn("whoami")}`,
      client: expect.stringMatching(/^supabase-js/),
      timeout: "8s",
    });
    // The impersonated role's own settings apply (ALTER ROLE anon SET statement_timeout = '3s').
    const anon = await f.anon.rpc(fn("whoami"), {}, { get: true });
    expect(anon.data).toMatchObject({ uid: null, role: "anon", method: "GET", timeout: "3s" });
    const service = await f.service.rpc(fn("whoami"));
    expect(service.data).toMatchObject({ role: "service_role", timeout: "8s" });
  });

  test("GET runs read-only: a volatile function that writes is refused with 405 (25006)", async () => {
    const res = await f.alice.rpc(fn("bump"), { author_id: 1 }, { get: true });
    expect(res.status).toBe(405);
    expect(res.error).toEqual({ code: "25006", details: null, hint: null, message: "cannot execute UPDATE in a read-only transaction" });
  });

  test("raised exceptions: P0001 is 400 with detail and hint; RAISE SQLSTATE 'PGRST' sets status and headers", async () => {
    const res = await f.anon.rpc(fn("fail"));
    expect(res.status).toBe(400);
    expect(res.error).toEqual({ code: "P0001", details: "the detail", hint: "the hint", message: "the moment is gone" });
    const teapot = await f.rest(`/rpc/${fn("teapot")}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(teapot.status).toBe(418);
    expect(teapot.headers.get("x-fixture")).toBe("yes");
    expect(await teapot.json()).toEqual({ code: "FX418", details: "d", hint: "h", message: "short and stout" });
  });

  test("unknown functions and argument names are PGRST202 (404) with PostgREST's wording", async () => {
    const missing = await f.anon.rpc(fn("nope"));
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({
      code: "PGRST202",
      message: `Could not find the function public.${fn("nope")} without parameters in the schema cache`,
      details: `Searched for the function public.${fn("nope")} without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    });
    const wrongArgs = await f.anon.rpc(fn("add"), { a: 1, c: 2 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error).toEqual({
      code: "PGRST202",
      message: `Could not find the function public.${fn("add")}(a, c) in the schema cache`,
      details: `Searched for the function public.${fn("add")} with parameters a, c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      hint: `Perhaps you meant to call the function public.${fn("add")}(a, b)`,
    });
  });

  test("other methods are 405 PGRST101; bad argument types are 400", async () => {
    const res = await f.rest(`/rpc/${fn("add")}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ code: "PGRST101", details: null, hint: null, message: "Cannot use the PATCH method on RPC" });
    const bad = await f.anon.rpc(fn("add"), { a: "x", b: 1 });
    expect(bad.status).toBe(400);
    expect(bad.error?.code).toBe("22P02");
  });

  test("functions shape the response with response.status and response.headers", async () => {
    const res = await f.rest(`/rpc/${fn("created")}?n=3`);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-items")).toBe("3");
    expect(await res.json()).toBe(3);
  });

  test("HEAD on a function returns headers only", async () => {
    const res = await f.anon.rpc(fn("series"), { n: 5 }, { head: true, count: "exact" });
    expect(res).toMatchObject({ status: 200, data: null, count: 5 });
  });
});

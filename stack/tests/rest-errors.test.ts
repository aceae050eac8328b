// PostgREST's errors, exactly: JWT failures, schema-cache misses, parse errors, SQLSTATE mapping,
// and SQL injection attempts in every parameter (answered as errors or as literal data, never run).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import { createFixture, type Fixture, userToken } from "./rest-fixture.ts";
import { withAggregatesSwitch } from "./rest-social-fixture.ts";

let f: Fixture;
let a: string;
let p: string;

beforeAll(async () => {
  f = await createFixture("fx_rest_err");
  ({ authors: a, posts: p } = f.t);
});
afterAll(async () => {
  await f?.teardown();
});

async function expectError(res: Response, status: number, body: Record<string, unknown>) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(await res.json()).toEqual(body);
}

describe("JWT", () => {
  test("an expired token is 401 PGRST303 with WWW-Authenticate", async () => {
    const expired = userToken(f.users.alice, { exp: Math.floor(Date.now() / 1000) - 10 });
    const res = await f.rest(`/${a}`, { token: expired });
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="JWT expired"');
    await expectError(res, 401, { code: "PGRST303", details: null, hint: null, message: "JWT expired" });
  });

  test("a token signed with another secret, or not a JWT at all, is 401 PGRST301", async () => {
    const forged = signHs256({ sub: f.users.alice, role: "service_role" }, "another-secret-that-is-at-least-32-chars");
    await expectError(await f.rest(`/${a}`, { token: forged }), 401, {
      code: "PGRST301",
      details: "None of the keys was able to decode the JWT",
      hint: null,
      message: "No suitable key or wrong key type",
    });
    await expectError(await f.rest(`/${a}`, { token: "not.ajwt" }), 401, {
      code: "PGRST301",
      details: null,
      hint: null,
      message: "Expected 3 parts in JWT; got 2",
    });
  });

  test("a role that does not exist is 401 (22023)", async () => {
    const ghost = signHs256({ sub: f.users.alice, role: "ghost", exp: Math.floor(Date.now() / 1000) + 60 });
    await expectError(await f.rest(`/${a}`, { token: ghost }), 401, {
      code: "22023",
      details: null,
      hint: null,
      message: 'role "ghost" does not exist',
    });
  });

  test("supabase-js surfaces the error object", async () => {
    const { createClient } = await import("@supabase/supabase-js");
    const { apiUrl, anonKey } = await import("./helpers/stack.ts");
    const client = createClient(apiUrl, anonKey, {
      auth: { persistSession: false },
      global: { headers: { Authorization: `Bearer ${userToken(f.users.bob, { exp: 1 })}` } },
    });
    const { error, status } = await client.from(a).select("id");
    expect(status).toBe(401);
    expect(error).toEqual({ code: "PGRST303", details: null, hint: null, message: "JWT expired" });
  });
});

describe("schema cache misses", () => {
  test("unknown table: 404 PGRST205 with a suggestion", async () => {
    await expectError(await f.rest(`/${a.slice(0, -1)}`), 404, {
      code: "PGRST205",
      details: null,
      hint: `Perhaps you meant the table 'public.${a}'`,
      message: `Could not find the table 'public.${a.slice(0, -1)}' in the schema cache`,
    });
  });

  test("unknown column in select: 400 42703 from Postgres", async () => {
    const { error, status } = await f.anon.from(a).select("id, nickname");
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "42703", message: `column ${a}.nickname does not exist` });
  });

  test("unknown relationship: 400 PGRST200; ambiguous: 300 PGRST201 with the candidates", async () => {
    await expectError(await f.rest(`/${a}?select=*,${f.prefix}_post(*)`), 400, {
      code: "PGRST200",
      details: `Searched for a foreign key relationship between '${a}' and '${f.prefix}_post' in the schema 'public', but no matches were found.`,
      hint: `Perhaps you meant '${p}' instead of '${f.prefix}_post'.`,
      message: `Could not find a relationship between '${a}' and '${f.prefix}_post' in the schema cache`,
    });
    const unrelated = await f.rest(`/${a}?select=*,${f.t.tags}(*)`);
    expect(await unrelated.json()).toMatchObject({ code: "PGRST200", hint: null });
    const hinted = await f.rest(`/${p}?select=*,${a}!nothing(*)`);
    expect((await hinted.json()).details).toBe(
      `Searched for a foreign key relationship between '${p}' and '${a}' using the hint 'nothing' in the schema 'public', but no matches were found.`,
    );
    await expectError(await f.rest(`/${p}?select=*,${a}(*)`), 300, {
      code: "PGRST201",
      details: [
        { cardinality: "many-to-one", embedding: `${p} with ${a}`, relationship: `${p}_author_id_fkey using ${p}(author_id) and ${a}(id)` },
        { cardinality: "many-to-one", embedding: `${p} with ${a}`, relationship: `${p}_editor_id_fkey using ${p}(editor_id) and ${a}(id)` },
      ],
      hint: `Try changing '${a}' to one of the following: '${a}!${p}_author_id_fkey', '${a}!${p}_editor_id_fkey'. Find the desired relationship in the 'details' key.`,
      message: `Could not embed because more than one relationship was found for '${p}' and '${a}'`,
    });
  });

  test("filters on a resource that is not embedded: PGRST108", async () => {
    await expectError(await f.rest(`/${a}?select=id&posts.id=eq.1`), 400, {
      code: "PGRST108",
      details: null,
      hint: "Verify that 'posts' is included in the 'select' query parameter.",
      message: "'posts' is not an embedded resource in this request",
    });
  });

  test("related order on a to-many embed: PGRST118", async () => {
    await expectError(await f.rest(`/${a}?select=id,posts:${p}!author_id(id)&order=posts(id)`), 400, {
      code: "PGRST118",
      details: `'${a}' and 'posts' do not form a many-to-one or one-to-one relationship`,
      hint: null,
      message: "A related order on 'posts' is not possible",
    });
  });
});

describe("request errors", () => {
  test("malformed select, filter, logic tree and order are 400 PGRST100", async () => {
    const cases = [`select=id,(`, `id=equals.1`, `or=(id.eq.1`, `order=id.sideways`, `limit=ten`, `select=id::`, `id=in.(1,2`];
    for (const query of cases) {
      const res = await f.rest(`/${a}?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.code, query).toBe("PGRST100");
      expect(body.message, query).toMatch(
        /^"failed to parse (select parameter|filter|logic tree|order|limit parameter) \(.*\)" \(line 1, column \d+\)$/,
      );
    }
    await expectError(await f.rest(`/${a}?order=id.up`), 400, {
      code: "PGRST100",
      details: 'unexpected "u" expecting "asc", "desc", "nullsfirst" or "nullslast"',
      hint: null,
      message: '"failed to parse order (id.up)" (line 1, column 4)',
    });
  });

  test("hostile nesting in select or logic trees is a parse error, not a crash", async () => {
    const deepSelect = `${"x(".repeat(2000)}id${")".repeat(2000)}`;
    const select = await f.rest(`/${a}?select=${deepSelect}`);
    expect(select.status).toBe(400);
    expect((await select.json()).code).toBe("PGRST100");
    const deepOr = `(${"and(".repeat(500)}id.eq.1${")".repeat(500)})`;
    const logic = await f.rest(`/${a}?or=${deepOr}`);
    expect(logic.status).toBe(400);
    expect(await logic.json()).toMatchObject({ code: "PGRST100", details: "nesting deeper than 64 levels" });
  });

  test("aggregates are disabled as on Supabase: PGRST123", async () => {
    // Shared with the aggregates suite, which switches them on for a while.
    await withAggregatesSwitch("shared", async () => {
      await expectError(await f.rest(`/${a}?select=count()`), 400, {
        code: "PGRST123",
        details: null,
        hint: null,
        message: "Use of aggregate functions is not allowed",
      });
      await expectError(await f.rest(`/${a}?select=age.sum(),name`), 400, {
        code: "PGRST123",
        details: null,
        hint: null,
        message: "Use of aggregate functions is not allowed",
      });
      await expectError(await f.rest(`/${a}?select=name,${p}!author_id(rating::int.max())`), 400, {
        code: "PGRST123",
        details: null,
        hint: null,
        message: "Use of aggregate functions is not allowed",
      });
    });
  });

  test("wrong types in filters are 400 22P02", async () => {
    await expectError(await f.rest(`/${a}?id=eq.abc`), 400, {
      code: "22P02",
      details: null,
      hint: null,
      message: 'invalid input syntax for type bigint: "abc"',
    });
  });

  test("unsupported media types, methods and paths", async () => {
    await expectError(await f.rest(`/${a}`, { headers: { Accept: "application/xml" } }), 406, {
      code: "PGRST107",
      details: null,
      hint: null,
      message: "None of these media types are available: application/xml",
    });
    await expectError(await f.rest(`/${a}/1`), 404, {
      code: "PGRST125",
      details: null,
      hint: null,
      message: "Invalid path specified in request URL",
    });
    await expectError(await f.rest(`/${a}`, { method: "PROPFIND" }), 405, {
      code: "PGRST117",
      details: null,
      hint: null,
      message: "Unsupported HTTP method: PROPFIND",
    });
  });

  test("strict handling refuses unknown preferences: PGRST122", async () => {
    await expectError(await f.rest(`/${a}`, { headers: { Prefer: "handling=strict, return=everything" } }), 400, {
      code: "PGRST122",
      details: "Invalid preferences: return=everything",
      hint: null,
      message: "Invalid preferences given with handling=strict",
    });
  });
});

describe("SQL injection attempts", () => {
  const attempts = [
    `'; drop table public.${"X"}; --`,
    `1); drop table public.${"X"}; --`,
    `" or 1=1 --`,
    `$1`,
    `\\'; select pg_sleep(5); --`,
    `x' || (select current_setting('request.jwt.claims')) || '`,
  ];

  async function tableIntact() {
    const { rows } = await f.sql(`select count(*)::int as n from public.${a}`);
    expect(rows[0].n).toBe(4);
  }

  test("values in filters and logic trees are data, never SQL", async () => {
    for (const attempt of attempts.map((s) => s.replace("X", a))) {
      const { data, error } = await f.anon.from(a).select("id").eq("name", attempt);
      expect(error).toBeNull();
      expect(data).toEqual([]);
      const res = await f.rest(`/${a}?or=(name.eq.${encodeURIComponent(`"${attempt.replaceAll('"', '\\"')}"`)},id.eq.0)`);
      expect(res.status).toBeLessThan(500);
      const list = await f.anon.from(a).select("id").in("name", [attempt, "Alice"]);
      expect(list.data).toEqual([{ id: 1 }]);
    }
    await tableIntact();
  });

  test("identifiers in select, order, on_conflict, columns and JSON keys are quoted, so injections are unknown names", async () => {
    const probes = [
      `/${a}?select=${encodeURIComponent(`"id"" from public.${a}; drop table public.${a}; --"`)}`,
      `/${a}?order=${encodeURIComponent(`"id; drop table public.${a}"`)}`,
      `/${a}?${encodeURIComponent(`"name; drop table public.${a}"`)}=eq.1`,
      `/${a}?select=id::${encodeURIComponent(`text); drop table public.${a}; --`)}`,
    ];
    for (const probe of probes) {
      const res = await f.rest(probe);
      expect(res.status, probe).toBeGreaterThanOrEqual(400);
      expect(res.status, probe).toBeLessThan(500);
    }
    // A JSON key is a value ($n), so an injection there is just a key that is not present.
    const jsonKey = await f.rest(`/${a}?select=id,${encodeURIComponent(`meta->>"x'); drop table public.${a}; --"`)}&id=eq.1`);
    expect(await jsonKey.json()).toEqual([{ id: 1, [`x'); drop table public.${a}; --`]: null }]);
    const conflict = await f.rest(`/${a}?on_conflict=${encodeURIComponent(`id) do nothing; drop table public.${a}; --`)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Prefer: "resolution=merge-duplicates" },
      body: JSON.stringify({ id: 1, name: "Alice" }),
    });
    expect(conflict.status).toBe(400);
    const columns = await f.rest(`/${a}?columns=${encodeURIComponent(`name") values ('x'); drop table public.${a}; --`)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(columns.status).toBe(400);
    expect((await columns.json()).code).toBe("PGRST204");
    const key = await f.service.from(a).insert({ [`name"); drop table public.${a}; --`]: "x" } as never);
    expect(key.error?.code).toBe("PGRST204");
    await tableIntact();
  });

  test("rpc argument names and values cannot escape", async () => {
    const res = await f.anon.rpc(`${f.prefix}_add`, { a: 1, [`b := 1); drop table public.${a}; --`]: 2 });
    expect(res.status).toBe(404);
    const value = await f.anon.rpc(`${f.prefix}_hello`, {}, { get: true });
    expect(value.data).toBe("hello");
    const echoed = await f.anon.rpc(`${f.prefix}_echo`, { sql: `'); drop table public.${a}; --` });
    expect(echoed.data).toEqual({ sql: `'); drop table public.${a}; --` });
    await tableIntact();
  });

  test("headers (Prefer, profiles, Range) are validated, not interpolated", async () => {
    const res = await f.rest(`/${a}`, { headers: { "Accept-Profile": `public"; drop table public.${a}; --` } });
    expect(res.status).toBe(406);
    const range = await f.rest(`/${a}?select=id`, { headers: { Range: "0-1; drop table x" } });
    expect(range.status).toBe(200);
    const who = await f.rest(`/rpc/${f.prefix}_whoami`, { headers: { "x-client-info": `'); drop table public.${a}; --` } });
    expect((await who.json()).client).toBe(`'); drop table public.${a}; --`);
    await tableIntact();
  });
});

// Thousands of malformed query strings, headers and bodies: every one gets an answer below 500
// (a PostgREST error with a code when it is refused), and the service keeps working afterwards.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFixture, type Fixture } from "./rest-fixture.ts";

let f: Fixture;

beforeAll(async () => {
  f = await createFixture("fx_rest_fuzz");
});
afterAll(async () => {
  await f?.teardown();
});

/** A small seeded PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const int = (max: number) => Math.floor(next() * max);
  return { next, pick, int };
}

const fragments = [
  "id",
  "name",
  "age",
  "meta",
  "tags",
  "posts",
  "author",
  "*",
  "...",
  "!inner",
  "!left",
  "!",
  "(",
  ")",
  ",",
  ".",
  ":",
  "::",
  "::text",
  "::int[]",
  "->",
  "->>",
  '"',
  "'",
  "\\",
  "{",
  "}",
  "[",
  "]",
  "eq",
  "neq",
  "gt",
  "like",
  "ilike",
  "in",
  "is",
  "cs",
  "ov",
  "fts",
  "fts(english)",
  "not",
  "or",
  "and",
  "any",
  "all",
  "(any)",
  "asc",
  "desc",
  "nullsfirst",
  "nullslast",
  "null",
  "true",
  "1",
  "-1",
  "99999999999999999999",
  "1.5e308",
  "%",
  "*",
  "_",
  ";",
  "--",
  "drop table x",
  " ",
  "\u0000",
  "\u00e9",
  "\ud83d\ude00",
  "$1",
  "count()",
  "sum()",
  "limit",
  "offset",
  "order",
  "select",
  "=",
  "&",
  "+",
  "~",
];
const keys = [
  "select",
  "order",
  "limit",
  "offset",
  "or",
  "and",
  "not.or",
  "not.and",
  "id",
  "name",
  "meta->>city",
  "meta->x->>y",
  "tags",
  "posts.id",
  "posts.order",
  "posts.limit",
  "x.y.z",
  "columns",
  "on_conflict",
  "",
  "select",
];
const bodies = [
  "",
  "{",
  "}",
  "[",
  "[]",
  "{}",
  "null",
  "true",
  "1",
  '"x"',
  '{"name":',
  '{"name":1}',
  '{"nope":1}',
  '[{"name":"a"},{"age":1}]',
  "[1,2]",
  "[[[]]]",
  '{"name":"\\u0000"}',
  '{"age":"x"}',
  '{"age":1e400}',
  '{"meta":{"a":[1,{"b":null}]}}',
  "\u0000",
  "{'a':1}",
  '{"id":' + "9".repeat(50) + "}",
  "[" + "[".repeat(3000) + "]".repeat(3000) + "]",
  '{"tags":"not-an-array"}',
  '{"tags":[1,[2]]}',
];

function randomText(r: ReturnType<typeof prng>, max = 8): string {
  let out = "";
  const n = 1 + r.int(max);
  for (let i = 0; i < n; i++) out += r.pick(fragments);
  return out;
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function randomProbe(r: ReturnType<typeof prng>): Probe {
  const resource = r.pick([
    f.t.authors,
    f.t.authors,
    f.t.posts,
    f.t.published,
    `rpc/${f.prefix}_add`,
    `rpc/${f.prefix}_older_than`,
    `rpc/${f.prefix}_echo`,
    "rpc/nope",
    randomText(r, 2),
  ]);
  const params = new URLSearchParams();
  const count = r.int(4);
  for (let i = 0; i < count; i++) {
    const key = r.next() < 0.8 ? r.pick(keys) : randomText(r, 3);
    const value =
      r.next() < 0.3 ? `${r.pick(["eq", "in", "not.eq", "or", "is", "like(any)", "fts(x)"])}.${randomText(r, 4)}` : randomText(r);
    params.append(key, value);
  }
  const method = r.pick(["GET", "GET", "GET", "HEAD", "POST", "PATCH", "DELETE", "PUT"]);
  const headers: Record<string, string> = {};
  if (r.next() < 0.3)
    headers.Prefer = r.pick([
      "return=representation",
      "count=exact",
      "count=planned",
      "count=estimated",
      "resolution=merge-duplicates",
      "missing=default",
      "handling=strict, max-affected=0",
      "params=single-object",
      "return=bogus",
      "count=exact, handling=strict, x",
    ]);
  if (r.next() < 0.2)
    headers.Accept = r.pick([
      "application/vnd.pgrst.object+json",
      "text/csv",
      "application/xml",
      "*/*;q=0",
      "application/json;q=abc",
      ",,,",
    ]);
  if (r.next() < 0.1) headers.Range = r.pick(["0-1", "5-2", "a-b", "-1", "0-"]);
  if (r.next() < 0.1)
    headers[method === "GET" || method === "HEAD" ? "Accept-Profile" : "Content-Profile"] = r.pick(["public", "auth", "", "pg_catalog"]);
  let body: string | undefined;
  if (method !== "GET" && method !== "HEAD") {
    headers["Content-Type"] = r.next() < 0.9 ? "application/json" : r.pick(["text/plain", "application/x-www-form-urlencoded", "text/csv"]);
    body = r.next() < 0.7 ? r.pick(bodies) : randomText(r, 12);
  }
  return { method, path: `/${resource}?${params}`, headers, body };
}

// thousands of requests: 5-15 s here, far more on a loaded machine
test("a few thousand malformed requests: no 5xx, every refusal is a PostgREST error, the stack stays up", async () => {
  const r = prng(Number(process.env.REST_FUZZ_SEED ?? 20261123));
  const probes = Array.from({ length: 3000 }, () => randomProbe(r));
  const failures: string[] = [];
  let refused = 0;
  let index = 0;
  const worker = async () => {
    while (index < probes.length) {
      const probe = probes[index++];
      const res = await f.rest(probe.path, { method: probe.method, headers: probe.headers, body: probe.body });
      const text = await res.text();
      if (res.status >= 500)
        failures.push(
          `${res.status} ${probe.method} ${probe.path} ${JSON.stringify(probe.headers)} ${probe.body?.slice(0, 80)} → ${text.slice(0, 200)}`,
        );
      else if (res.status >= 400) {
        refused++;
        if (probe.method !== "HEAD") {
          const error = JSON.parse(text) as Record<string, unknown>;
          if (typeof error.code !== "string" || typeof error.message !== "string" || !("details" in error) || !("hint" in error))
            failures.push(`shape ${probe.path} → ${text.slice(0, 200)}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  expect(failures).toEqual([]);
  expect(refused).toBeGreaterThan(2000);
  const { data, error } = await f.anon.from(f.t.authors).select("id").order("id");
  expect(error).toBeNull();
  expect(data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
}, 240_000);

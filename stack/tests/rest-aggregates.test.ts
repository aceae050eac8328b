// Aggregates (count(), sum(), avg(), min(), max()) once a project switches them on as on Supabase:
// `alter role authenticator set pgrst.db_aggregates_enabled = 'true'` and a schema reload. Off
// again, they answer PGRST123. Runs on its own copy of the people/messages fixture.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSocialFixture, type SocialFixture, withAggregatesSwitch } from "./rest-social-fixture.ts";

let f: SocialFixture;
let release: () => void;
let held: Promise<void>;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await check());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const aggregatesAnswer = async () => (await f.rest(`/${f.t.messages}?select=count()`)).status;

beforeAll(async () => {
  f = await createSocialFixture("fx_rest_agg");
  // Hold the switch for the whole suite: checks that aggregates are off wait meanwhile.
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  held = withAggregatesSwitch("exclusive", () => {
    entered();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await inside;
  expect(await aggregatesAnswer()).toBe(400);
  await f.sql("alter role authenticator set pgrst.db_aggregates_enabled = 'true'");
  await f.sql("notify pgrst, 'reload schema'");
  await until(async () => (await aggregatesAnswer()) === 200, "aggregates are on");
});

afterAll(async () => {
  try {
    await f?.sql("alter role authenticator reset pgrst.db_aggregates_enabled");
    await f?.sql("notify pgrst, 'reload schema'");
    if (f) await until(async () => (await aggregatesAnswer()) === 400, "aggregates are off again");
  } finally {
    release?.();
    await held;
    await f?.teardown();
  }
});

type Row = Record<string, unknown>;
const byKey = (key: string) => (a: Row, b: Row) => String(a[key]).localeCompare(String(b[key]));

describe("aggregates when enabled", () => {
  test("count() over the whole table, and with filters", async () => {
    expect((await f.anon.from(f.t.messages).select("count()")).data).toEqual([{ count: 5 }]);
    expect((await f.anon.from(f.t.messages).select("count()").eq("channel_id", 2)).data).toEqual([{ count: 2 }]);
    expect((await f.anon.from(f.t.messages).select("count()").eq("channel_id", 3)).data).toEqual([{ count: 0 }]);
  });

  test("sum, avg, min and max with aliases and casts of the result", async () => {
    const { data, error } = await f.anon
      .from(f.t.messages)
      .select("likes.sum(), average:likes.avg()::int, likes.min(), most:likes.max(), total:count()");
    expect(error).toBeNull();
    expect(data).toEqual([{ sum: 16, average: 3, min: 0, most: 7, total: 5 }]);
  });

  test("a cast before the aggregate (a JSON field summed as numeric)", async () => {
    const res = await f.rest(`/${f.t.messages}?select=meta->>score::numeric.sum(),meta->>score::numeric.max()::text`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ sum: 10.5, max: "4" }]);
  });

  test("grouped by the other selected columns (aliased too), ordered by them", async () => {
    const { data } = await f.anon.from(f.t.messages).select("channel_id, count(), likes.sum()").order("channel_id");
    expect(data).toEqual([
      { channel_id: 1, count: 3, sum: 9 },
      { channel_id: 2, count: 2, sum: 7 },
    ]);
    const aliased = await f.anon
      .from(f.t.messages)
      .select("channel:channel_id, posts:count()")
      .order("channel_id", { ascending: false })
      .limit(1);
    expect(aliased.data).toEqual([{ channel: 2, posts: 2 }]);
  });

  test("grouped by a many-to-one embed", async () => {
    const { data, error } = await f.anon.from(f.t.messages).select(`likes.sum(), ${f.t.people}(username)`);
    expect(error).toBeNull();
    expect((data as unknown as Row[]).sort((a, b) => byKey("username")(a[f.t.people] as Row, b[f.t.people] as Row))).toEqual([
      { sum: 11, [f.t.people]: { username: "alice" } },
      { sum: 5, [f.t.people]: { username: "bob" } },
      { sum: 0, [f.t.people]: { username: "carol" } },
    ]);
  });

  test("inside an embed: aggregated per parent row (an empty group counts 0)", async () => {
    const { data, error } = await f.anon.from(f.t.channels).select(`slug, ${f.t.messages}(count(), likes.max())`).order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: "public", [f.t.messages]: [{ count: 3, max: 5 }] },
      { slug: "random", [f.t.messages]: [{ count: 2, max: 7 }] },
      { slug: "quiet", [f.t.messages]: [{ count: 0, max: null }] },
    ]);
    const grouped = await f.anon
      .from(f.t.people)
      .select(`username, ${f.t.messages}(channel_id, count())`)
      .eq("id", 1)
      .order("channel_id", { referencedTable: f.t.messages });
    expect(grouped.data).toEqual([
      {
        username: "alice",
        [f.t.messages]: [
          { channel_id: 1, count: 2 },
          { channel_id: 2, count: 1 },
        ],
      },
    ]);
  });

  test("on a set-returning function's rows", async () => {
    const res = await f.rest(`/rpc/${f.p}_adults?select=age.sum(),count()`);
    expect(await res.json()).toEqual([{ sum: 107, count: 3 }]);
  });

  test("bad aggregate input is still a clear error", async () => {
    const res = await f.rest(`/${f.t.messages}?select=message.sum()`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "42883", message: "function sum(text) does not exist" });
    const parse = await f.rest(`/${f.t.messages}?select=likes.median()`);
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ code: "PGRST100" });
  });
});

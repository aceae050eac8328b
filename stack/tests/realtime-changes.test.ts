// postgres_changes conformance: changes from logical replication of the supabase_realtime
// publication, delivered per subscriber only when its role and claims can SELECT the row (RLS),
// with event and column filters, in Realtime's payload shape.
import type { RealtimeChannel, RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import {
  type TestUser,
  type Vsn,
  closeClients,
  createUsers,
  deleteUsers,
  realtimeClient,
  sql,
  subscribe,
  subscribeChanges,
  waitFor,
} from "./realtime-helpers.ts";

// change feeds and joins wait on a busy API and replication stream: generous ceilings, never a speed test
vi.setConfig({ testTimeout: 120_000 });

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [alice, bob] = await createUsers("fx-rt-changes", 2);
  await sql(`
    create table public.fx_rt_notes (
      id bigint generated always as identity primary key,
      owner uuid not null references auth.users (id) on delete cascade,
      body text not null,
      n int not null default 0,
      tags text[] not null default '{}',
      meta jsonb,
      done boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index on public.fx_rt_notes (owner);
    alter table public.fx_rt_notes enable row level security;
    create policy fx_rt_notes_owner on public.fx_rt_notes for select to authenticated using (owner = (select auth.uid()));
    create table public.fx_rt_scores (id int primary key, player text not null, score int not null, level numeric);
    alter table public.fx_rt_scores replica identity full;
    create table public.fx_rt_hidden (id int primary key, secret text);
    alter table public.fx_rt_hidden enable row level security;
    revoke all on public.fx_rt_hidden from anon;
    create table public.fx_rt_unpublished (id int primary key);
    alter publication supabase_realtime add table public.fx_rt_notes, public.fx_rt_scores, public.fx_rt_hidden;`);
});

afterAll(async () => {
  await closeClients();
  await sql("drop table if exists public.fx_rt_notes, public.fx_rt_scores, public.fx_rt_hidden, public.fx_rt_unpublished");
  await deleteUsers([alice, bob]);
});

/** A channel collecting the changes of one table (plus, optionally, a barrier table). */
async function listen(
  as: "anon" | "service" | TestUser,
  table: string,
  vsn: Vsn = "2.0.0",
  extra?: (channel: RealtimeChannel) => RealtimeChannel,
) {
  const changes: Change[] = [];
  const client = await realtimeClient(as, vsn);
  let channel = client
    .channel(`fx-rt-changes-${Math.random()}`)
    .on("postgres_changes", { event: "*", schema: "public", table }, (c) => changes.push(c as Change));
  if (extra) channel = extra(channel);
  expect(await subscribeChanges(channel)).toMatchObject({ status: "ok", message: "Subscribed to PostgreSQL" });
  return changes;
}

const isoZ = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("RLS decides who receives a change", () => {
  test("inserts reach the row's owner and the service role, not another user or anon; payloads in Realtime's shape", async () => {
    const scoresForAnon: Change[] = [];
    const [forAlice, forBob, forAnon, forService] = await Promise.all([
      listen(alice, "fx_rt_notes"),
      listen(bob, "fx_rt_notes"),
      listen("anon", "fx_rt_notes", "2.0.0", (ch) =>
        ch.on("postgres_changes", { event: "INSERT", schema: "public", table: "fx_rt_scores" }, (c) => scoresForAnon.push(c as Change)),
      ),
      listen("service", "fx_rt_notes"),
    ]);
    await sql("insert into public.fx_rt_notes (owner, body) values ($1, 'bob''s')", [bob.id]);
    const [row] = await sql<{ id: string; created_at: string }>(
      "insert into public.fx_rt_notes (owner, body, n, tags, meta) values ($1, 'alice''s', 7, '{a,\"b c\"}', '{\"k\": [1, true]}') returning id::text, to_jsonb(created_at) #>> '{}' as created_at",
      [alice.id],
    );
    await sql("insert into public.fx_rt_scores (id, player, score) values (1000, 'barrier', 0)");

    await waitFor("alice's insert", () => forAlice.length === 1);
    expect(forAlice[0]).toEqual({
      schema: "public",
      table: "fx_rt_notes",
      commit_timestamp: expect.stringMatching(isoZ),
      eventType: "INSERT",
      new: {
        id: Number(row.id),
        owner: alice.id,
        body: "alice's",
        n: 7,
        tags: ["a", "b c"],
        meta: { k: [1, true] },
        done: false,
        created_at: row.created_at,
      },
      old: {},
      errors: null,
    });
    await waitFor("bob's insert", () => forBob.length === 1);
    expect(forBob.map((c) => (c.new as { body: string }).body)).toEqual(["bob's"]);
    await waitFor("both for the service role", () => forService.length === 2);
    expect(forService.map((c) => (c.new as { body: string }).body)).toEqual(["bob's", "alice's"]);
    // anon's barrier arrives after both notes were committed: anon saw none of them
    await waitFor("anon's barrier", () => scoresForAnon.length === 1);
    expect(forAnon).toEqual([]);
    // alice saw only her row although bob's was committed first
    expect(forAlice).toHaveLength(1);
  });

  test("updates carry the new row and the old primary key; deletes reach every subscriber with only the primary key", async () => {
    const [{ id }] = await sql<{ id: string }>("insert into public.fx_rt_notes (owner, body) values ($1, 'draft') returning id::text", [
      alice.id,
    ]);
    const [forAlice, forBob] = await Promise.all([listen(alice, "fx_rt_notes"), listen(bob, "fx_rt_notes")]);
    await sql("update public.fx_rt_notes set body = 'final', done = true where id = $1", [id]);
    // RLS is checked against the row as it is when the change is processed (as in Realtime), so the
    // delete waits until the update is out: an update of a row deleted meanwhile is seen by no one.
    await waitFor("alice's update", () => forAlice.length === 1);
    await sql("delete from public.fx_rt_notes where id = $1", [id]);
    await waitFor("alice's delete", () => forAlice.length === 2);
    expect(forAlice[0]).toMatchObject({
      eventType: "UPDATE",
      new: { id: Number(id), body: "final", done: true },
      old: { id: Number(id) },
      errors: null,
    });
    // Realtime cannot check RLS for a row that is gone, so every subscriber gets the delete — with the key only
    expect(forAlice[1]).toEqual({
      schema: "public",
      table: "fx_rt_notes",
      commit_timestamp: expect.stringMatching(isoZ),
      eventType: "DELETE",
      new: {},
      old: { id: Number(id) },
      errors: null,
    });
    await waitFor("bob's delete", () => forBob.length === 1);
    expect(forBob).toEqual([forAlice[1]]);
  });

  test("a role without SELECT on the table receives Realtime's 401 error record", async () => {
    const [forAnon, forService] = await Promise.all([listen("anon", "fx_rt_hidden"), listen("service", "fx_rt_hidden")]);
    await sql("insert into public.fx_rt_hidden (id, secret) values (1, 'shh')");
    await waitFor("both", () => forAnon.length === 1 && forService.length === 1);
    expect(forAnon[0]).toMatchObject({
      schema: "public",
      table: "fx_rt_hidden",
      eventType: "INSERT",
      new: {},
      old: {},
      errors: ["Error 401: Unauthorized"],
    });
    expect(forService[0]).toMatchObject({ eventType: "INSERT", new: { id: 1, secret: "shh" }, errors: null });
  });
});

describe("filters and events", () => {
  test("eq, neq, lt, lte, gt, gte and in deliver exactly the matching rows", async () => {
    const client = await realtimeClient("anon");
    const got: Record<string, number[]> = {};
    const filters = [
      "score=eq.10",
      "score=neq.10",
      "score=lt.10",
      "score=lte.10",
      "score=gt.10",
      "score=gte.10",
      'player=in.(ann,"bo b")',
      "level=gte.2.5",
    ];
    let channel = client.channel("fx-rt-filters");
    for (const filter of filters) {
      got[filter] = [];
      channel = channel.on("postgres_changes", { event: "INSERT", schema: "public", table: "fx_rt_scores", filter }, (c) =>
        got[filter].push((c.new as { id: number }).id),
      );
    }
    expect(await subscribeChanges(channel)).toMatchObject({ status: "ok" });
    await sql(
      "insert into public.fx_rt_scores (id, player, score, level) values (1, 'ann', 5, 2.5), (2, 'bo b', 10, null), (3, 'cy', 15, 10)",
    );
    await sql("insert into public.fx_rt_scores (id, player, score) values (4, 'zed', 100)");
    await waitFor("the last row", () => got["score=gt.10"].includes(4));
    expect(got).toEqual({
      "score=eq.10": [2],
      "score=neq.10": [1, 3, 4],
      "score=lt.10": [1],
      "score=lte.10": [1, 2],
      "score=gt.10": [3, 4],
      "score=gte.10": [2, 3, 4],
      'player=in.(ann,"bo b")': [1, 2],
      "level=gte.2.5": [1, 3],
    });
  });

  test("a uuid filter combined with RLS, as a room feed subscribes (owner=eq.<uuid>)", async () => {
    const client = await realtimeClient(alice);
    const got: string[] = [];
    const channel = client
      .channel("fx-rt-uuid")
      .on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "fx_rt_notes", filter: `owner=eq.${alice.id.toUpperCase()}` },
        (c) => got.push((c.new as { body: string }).body),
      );
    expect(await subscribeChanges(channel)).toMatchObject({ status: "ok" });
    await sql("insert into public.fx_rt_notes (owner, body) values ($1, 'not mine'), ($2, 'mine')", [bob.id, alice.id]);
    await sql("insert into public.fx_rt_notes (owner, body) values ($1, 'mine too')", [alice.id]);
    await waitFor("the second row", () => got.length === 2);
    expect(got).toEqual(["mine", "mine too"]);
  });

  test("event filters; with REPLICA IDENTITY FULL updates and deletes carry the whole old row", async () => {
    await sql("insert into public.fx_rt_scores (id, player, score) values (20, 'eve', 1)");
    const client = await realtimeClient("anon", "1.0.0");
    const got: Record<string, Change[]> = { INSERT: [], UPDATE: [], DELETE: [] };
    let channel = client.channel("fx-rt-events");
    for (const event of ["INSERT", "UPDATE", "DELETE"] as const) {
      channel = channel.on("postgres_changes", { event, schema: "public", table: "fx_rt_scores", filter: "player=eq.eve" }, (c) =>
        got[event].push(c as Change),
      );
    }
    expect(await subscribeChanges(channel)).toMatchObject({ status: "ok" });
    await sql("update public.fx_rt_scores set score = 2 where id = 20");
    await sql("delete from public.fx_rt_scores where id = 20");
    await sql("insert into public.fx_rt_scores (id, player, score) values (21, 'eve', 3)");
    await waitFor("the insert", () => got.INSERT.length === 1);
    expect(got.UPDATE.map((c) => [c.new, c.old])).toEqual([
      [
        { id: 20, player: "eve", score: 2, level: null },
        { id: 20, player: "eve", score: 1, level: null },
      ],
    ]);
    expect(got.DELETE.map((c) => [c.new, c.old])).toEqual([[{}, { id: 20, player: "eve", score: 2, level: null }]]);
    expect(got.INSERT.map((c) => c.new)).toEqual([{ id: 21, player: "eve", score: 3, level: null }]);
  });

  test("a schema-wide subscription receives every published table of the schema", async () => {
    const client = await realtimeClient("service");
    const tables: string[] = [];
    const channel = client
      .channel("fx-rt-schema")
      .on("postgres_changes", { event: "INSERT", schema: "public" }, (c) => tables.push((c as Change).table));
    expect(await subscribeChanges(channel)).toMatchObject({ status: "ok" });
    await sql("insert into public.fx_rt_hidden (id) values (30)");
    await sql("insert into public.fx_rt_scores (id, player, score) values (30, 'sam', 1)");
    await waitFor("both tables", () => tables.includes("fx_rt_scores"));
    expect(tables).toEqual(["fx_rt_hidden", "fx_rt_scores"]);
  });
});

describe("join options", () => {
  test("postgres_changes_options.wait holds the join until subscribed; replication_ready reports the stream", async () => {
    const client = await realtimeClient("anon");
    const system: unknown[] = [];
    const channel = client
      .channel("fx-rt-wait", { config: { postgres_changes_options: { wait: true }, broadcast: { replication_ready: true } } })
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "fx_rt_scores" }, () => undefined)
      .on("system", {}, (m) => system.push(m));
    expect((await subscribe(channel)).status).toBe("SUBSCRIBED");
    await waitFor("both system messages", () => system.length === 2);
    expect(system).toEqual(
      expect.arrayContaining([
        { extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL", channel: "fx-rt-wait" },
        { extension: "system", status: "ok", message: "Replication connection established", channel: "fx-rt-wait" },
      ]),
    );
  });

  test("with wait, a subscription Realtime refuses fails the join with RealtimeDisabledForConfiguration", async () => {
    const client = await realtimeClient("anon");
    const channel = client
      .channel("fx-rt-wait-refused", { config: { postgres_changes_options: { wait: true } } })
      .on("postgres_changes", { event: "*", schema: "public", table: "fx_rt_unpublished" }, () => undefined);
    const joined = await subscribe(channel);
    await channel.unsubscribe();
    expect(joined.status).toBe("CHANNEL_ERROR");
    expect(joined.error?.message).toBe(
      'RealtimeDisabledForConfiguration: Subscription insert failed with 0 rows. Check that tables are part of publication supabase_realtime and subscription params are correct: %{"event" => "*", "schema" => "public", "table" => "fx_rt_unpublished"}',
    );
  });
});

describe("subscriptions Realtime refuses", () => {
  async function systemMessage(params: { table: string; filter?: string }, as: "anon" | { token: string } = "anon") {
    const client = await realtimeClient(as);
    const channel = client
      .channel(`fx-rt-bad-${Math.random()}`)
      .on("postgres_changes", { event: "*", schema: "public", ...params }, () => undefined);
    return await subscribeChanges(channel);
  }

  test("a table outside the publication", async () => {
    expect(await systemMessage({ table: "fx_rt_unpublished" })).toMatchObject({
      status: "error",
      message:
        'Subscription insert failed with 0 rows. Check that tables are part of publication supabase_realtime and subscription params are correct: %{"event" => "*", "schema" => "public", "table" => "fx_rt_unpublished"}',
    });
  });

  test("an unsupported filter operator", async () => {
    expect(await systemMessage({ table: "fx_rt_scores", filter: "player=like.a%" })).toMatchObject({
      status: "error",
      message: 'Error parsing `filter` params: ["like", "a%"]',
    });
    expect(await systemMessage({ table: "fx_rt_scores", filter: "player=in.ann" })).toMatchObject({
      status: "error",
      message: "Error parsing `filter` params: `in` filter value must be wrapped by parentheses",
    });
  });

  test("a filter on an unknown column or with a value of the wrong type", async () => {
    const unknown = await systemMessage({ table: "fx_rt_scores", filter: "nope=eq.1" });
    expect(unknown.status).toBe("error");
    expect(unknown.message).toContain("invalid column for filter nope");
    const wrongType = await systemMessage({ table: "fx_rt_scores", filter: "score=eq.abc" });
    expect(wrongType.status).toBe("error");
    expect(wrongType.message).toContain('invalid input syntax for type integer: "abc"');
  });

  test("claims whose role does not exist in the database", async () => {
    const token = signHs256({ role: "nobody", exp: Math.floor(Date.now() / 1000) + 600 });
    const refused = await systemMessage({ table: "fx_rt_scores" }, { token });
    expect(refused.status).toBe("error");
    expect(refused.message).toContain('role "nobody" does not exist');
  });
});

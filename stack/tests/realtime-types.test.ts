// postgres_changes values, frame by frame: Realtime renders each column as to_jsonb(value), so the
// raw `data.record` must equal what Postgres' to_jsonb gives for the row, for every column type an
// app is likely to use; `columns` names each column's pg_type.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { RawSocket, sql } from "./realtime-helpers.ts";

// change feeds and joins wait on a busy API and replication stream: generous ceilings, never a speed test
vi.setConfig({ testTimeout: 120_000 });

let socket: RawSocket;

beforeAll(async () => {
  await sql(`
    create type public.fx_rt_mood as enum ('calm', 'loud');
    create table public.fx_rt_types (
      id bigint primary key,
      small int2, big int8, exact numeric, approx float8, single float4, flag boolean,
      label text, code varchar(8), padded char(4), ident uuid, day date, at_time time, at_timetz timetz,
      at timestamp, at_tz timestamptz, span interval, doc json, docb jsonb, blob bytea, mood public.fx_rt_mood,
      words text[], grid int4[], stamps timestamptz[], docs jsonb[], cash money, addr inet
    );
    alter publication supabase_realtime add table public.fx_rt_types;`);
  socket = await RawSocket.open("2.0.0");
  socket.send(
    JSON.stringify([
      "1",
      "1",
      "realtime:fx-rt-types",
      "phx_join",
      { config: { postgres_changes: [{ event: "INSERT", schema: "public", table: "fx_rt_types" }] } },
    ]),
  );
  await socket.next("subscribed", (f: unknown[]) => f[3] === "system" && (f[4] as { status: string }).status === "ok");
});

afterAll(async () => {
  socket?.close();
  await sql("drop table if exists public.fx_rt_types; drop type if exists public.fx_rt_mood;");
});

test.each([
  [
    "typical values",
    `insert into public.fx_rt_types values (1, -7, 9007199254740991, 1.50, 2.5, 0.25, true, 'hé "quoted"', 'abc', 'ab', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      '2024-02-29', '12:34:56.789', '12:34:56+05:30', '2024-02-29 23:59:59.123456', '2024-02-29 23:59:59.5+02', '1 day 02:03:04',
      '{"a": [1, 2]}', '{"b": {"c": null}}', '\\x00ff', 'loud', '{a,"b c",NULL,"d,\\"e"}', '{{1,2},{3,4}}',
      '{"2024-01-01 00:00:00+00",NULL}', array['{"k": 1}'::jsonb, 'null'::jsonb], 12.34, '10.0.0.1/8')`,
  ],
  ["nulls", "insert into public.fx_rt_types (id) values (2)"],
  [
    "special numbers and empty arrays",
    "insert into public.fx_rt_types (id, exact, approx, single, words, at_tz) values (3, 'NaN', 'Infinity', '-Infinity', '{}', 'infinity')",
  ],
])("%s: data.record equals to_jsonb of the row", async (_name, insert) => {
  await sql(insert);
  const id = Number(/values \((\d+)/.exec(insert)![1]);
  const frame = await socket.next<
    [string, null, string, string, { ids: number[]; data: { record: Record<string, unknown>; columns: unknown[] } }]
  >(`change ${id}`, (f) => f[3] === "postgres_changes" && f[4].data.record.id === id);
  const [{ row }] = await sql<{ row: Record<string, unknown> }>("select to_jsonb(t) as row from public.fx_rt_types t where id = $1", [id]);
  expect(frame[4].data.record).toEqual(row);
  const columns = await sql<{ name: string; type: string }>(
    "select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid where a.attrelid = 'public.fx_rt_types'::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum",
  );
  expect(frame[4].data.columns).toEqual(columns);
});

test("a column added while subscribed shows up in the next change (Postgres re-announces the relation)", async () => {
  await sql(`create table public.fx_rt_evolve (id int primary key, a text);
             alter table public.fx_rt_evolve enable row level security;
             create policy fx_rt_evolve_read on public.fx_rt_evolve for select to anon using (true);
             alter publication supabase_realtime add table public.fx_rt_evolve;`);
  try {
    const evolve = await RawSocket.open("2.0.0");
    try {
      evolve.send(
        JSON.stringify([
          "1",
          "1",
          "realtime:fx-rt-evolve",
          "phx_join",
          { config: { postgres_changes: [{ event: "INSERT", schema: "public", table: "fx_rt_evolve" }] } },
        ]),
      );
      await evolve.next("subscribed", (f: unknown[]) => f[3] === "system" && (f[4] as { status: string }).status === "ok");
      type Frame = [string, null, string, string, { data: { record: Record<string, unknown>; columns: Array<{ name: string }> } }];
      await sql("insert into public.fx_rt_evolve values (1, 'before')");
      const before = await evolve.next<Frame>("first change", (f) => f[3] === "postgres_changes" && f[4].data.record.id === 1);
      expect(before[4].data.record).toEqual({ id: 1, a: "before" });
      await sql("alter table public.fx_rt_evolve add column b int not null default 5");
      await sql("insert into public.fx_rt_evolve values (2, 'after', 7)");
      const after = await evolve.next<Frame>("second change", (f) => f[3] === "postgres_changes" && f[4].data.record.id === 2);
      expect(after[4].data.record).toEqual({ id: 2, a: "after", b: 7 });
      expect(after[4].data.columns.map((c) => c.name)).toEqual(["id", "a", "b"]);
    } finally {
      evolve.close();
    }
  } finally {
    await sql("drop table public.fx_rt_evolve");
  }
});

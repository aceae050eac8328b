// Broadcast from the database, as Supabase documents it: realtime.send and
// realtime.broadcast_changes write rows of realtime.messages in the caller's transaction, and the
// Realtime service delivers each committed one, in commit order, to the channels joined to its
// topic — private ones only to those the realtime.messages select policy let in when they joined
// (or last sent a token). On a fixture schema of this suite's own.
import type { RealtimeChannel } from "@supabase/supabase-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { applyRealtimeSchema, createMessagePartition, dropOldMessagePartitions, partitionName } from "../lib/realtime-messages.ts";
import { databaseUrl } from "./helpers/stack.ts";
import {
  RawSocket,
  type TestUser,
  closeClients,
  createUsers,
  deleteUsers,
  realtimeClient,
  sql,
  subscribe,
  userToken,
  waitFor,
} from "./realtime-helpers.ts";

vi.setConfig({ testTimeout: 120_000 });

const topic = "fx-rtb:items";
let users: TestUser[] = [];
type Received = { type: string; event: string; payload: Record<string, unknown>; meta?: { id: string } };

beforeAll(async () => {
  users = await createUsers("fx-rtb", 3);
  const [reader, , other] = users;
  await sql(`
    drop schema if exists fx_rtb cascade;
    create schema fx_rtb;
    create table fx_rtb.readers (topic text not null, user_id uuid not null, primary key (topic, user_id));
    create table fx_rtb.items (id bigint generated always as identity primary key, body text not null);
    create function fx_rtb.items_broadcast() returns trigger language plpgsql security definer set search_path = '' as $$
    begin
      perform realtime.broadcast_changes('fx-rtb:items', tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
      return null;
    end;
    $$;
    create trigger items_broadcast after insert or update or delete on fx_rtb.items for each row execute function fx_rtb.items_broadcast();
    grant usage on schema fx_rtb to authenticated;
    grant select on fx_rtb.readers to authenticated;
    create policy fx_rtb_read on realtime.messages for select to authenticated
      using (realtime.topic() like 'fx-rtb:%'
             and exists (select 1 from fx_rtb.readers r where r.topic = (select realtime.topic()) and r.user_id = (select auth.uid())));`);
  await sql("insert into fx_rtb.readers (topic, user_id) values ($1, $2), ($1, $3), ('fx-rtb:order', $2)", [topic, reader.id, other.id]);
});

afterAll(async () => {
  await closeClients();
  await sql("drop policy if exists fx_rtb_read on realtime.messages; drop schema if exists fx_rtb cascade;");
  await deleteUsers(users);
});

/** Joins `name` as `user` (private unless said otherwise) and collects every broadcast it receives. */
async function listen(
  user: TestUser | "anon",
  name: string,
  isPrivate = true,
): Promise<{ channel: RealtimeChannel; got: Received[]; statuses: string[]; system: unknown[] }> {
  const client = await realtimeClient(user === "anon" ? "anon" : { token: user.token });
  const channel = client.channel(name, { config: { private: isPrivate } });
  const got: Received[] = [];
  const statuses: string[] = [];
  const system: unknown[] = [];
  channel.on("broadcast", { event: "*" }, (m) => got.push(m as Received)).on("system", {}, (m) => system.push(m));
  const joined = await new Promise<string>((resolve) =>
    channel.subscribe((status) => (statuses.push(status), status !== "CLOSED" && resolve(status))),
  );
  if (joined !== "SUBSCRIBED") throw new Error(`join of ${name} failed: ${joined}`);
  return { channel, got, statuses, system };
}

async function send(payload: object, event: string, to: string, isPrivate?: boolean): Promise<void> {
  if (isPrivate === undefined) await sql("select realtime.send($1::jsonb, $2, $3)", [JSON.stringify(payload), event, to]);
  else await sql("select realtime.send($1::jsonb, $2, $3, $4)", [JSON.stringify(payload), event, to, isPrivate]);
}

describe("realtime.send and realtime.broadcast_changes", () => {
  test("have Supabase's signatures: send(payload, event, topic, private default true), broadcast_changes(… level default 'ROW')", async () => {
    const rows = await sql<{ signature: string }>(
      `select p.oid::regprocedure::text || ' ' || pg_get_function_arguments(p.oid) || ' -> ' || pg_get_function_result(p.oid) as signature
         from pg_proc p where p.pronamespace = 'realtime'::regnamespace and p.proname in ('send', 'broadcast_changes') order by p.proname desc`,
    );
    expect(rows.map((r) => r.signature)).toEqual([
      "realtime.send(jsonb,text,text,boolean) payload jsonb, event text, topic text, private boolean DEFAULT true -> void",
      "realtime.broadcast_changes(text,text,text,text,text,record,record,text) topic_name text, event_name text, operation text, table_name text, table_schema text, new record, old record, level text DEFAULT 'ROW'::text -> void",
    ]);
  });

  test("a message is a row of realtime.messages (extension broadcast) whose payload carries its id", async () => {
    await send({ hello: "row" }, "row-check", "fx-rtb:rows", false);
    const [row] = await sql<{ id: string; extension: string; private: boolean; payload: { id: string; hello: string }; event: string }>(
      "select id::text, extension, private, payload, event from realtime.messages where topic = 'fx-rtb:rows' order by inserted_at desc limit 1",
    );
    expect(row).toMatchObject({ extension: "broadcast", private: false, event: "row-check", payload: { hello: "row", id: row.id } });
  });

  test("insert, update and delete arrive as {id, schema, table, operation, record, old_record}", async () => {
    const { got } = await listen(users[0], topic);
    const [{ id }] = await sql<{ id: string }>("insert into fx_rtb.items (body) values ('first') returning id");
    await sql("update fx_rtb.items set body = 'second' where id = $1", [id]);
    await sql("delete from fx_rtb.items where id = $1", [id]);
    await waitFor("three changes", () => got.length === 3);
    const row = Number(id);
    expect(got.map((m) => [m.type, m.event, m.payload])).toEqual([
      [
        "broadcast",
        "INSERT",
        {
          id: expect.any(String),
          schema: "fx_rtb",
          table: "items",
          operation: "INSERT",
          record: { id: row, body: "first" },
          old_record: null,
        },
      ],
      [
        "broadcast",
        "UPDATE",
        {
          id: expect.any(String),
          schema: "fx_rtb",
          table: "items",
          operation: "UPDATE",
          record: { id: row, body: "second" },
          old_record: { id: row, body: "first" },
        },
      ],
      [
        "broadcast",
        "DELETE",
        {
          id: expect.any(String),
          schema: "fx_rtb",
          table: "items",
          operation: "DELETE",
          record: null,
          old_record: { id: row, body: "second" },
        },
      ],
    ]);
    // each message's id is the payload's id and the realtime.messages row's
    for (const m of got) expect(m.meta?.id).toBe(m.payload.id);
    const stored = await sql<{ id: string }>("select id::text from realtime.messages where id = any($1::uuid[])", [
      got.map((m) => m.payload.id),
    ]);
    expect(stored).toHaveLength(3);
  });

  test("broadcast_changes refuses statement-level use and unknown operations, failing the write", async () => {
    await expect(
      sql("select realtime.broadcast_changes('fx-rtb:x', 'e', 'INSERT', 't', 's', null::record, null::record, 'STATEMENT')"),
    ).rejects.toThrow("Failed to process the row: function can only be triggered for each row, not for each statement");
    await expect(
      sql("select realtime.broadcast_changes('fx-rtb:x', 'e', 'TRUNCATE', 't', 's', null::record, null::record)"),
    ).rejects.toThrow("Failed to process the row: Unexpected operation type: TRUNCATE");
  });

  test("a send the caller may not write is a warning, not an error: the transaction goes on, nothing is sent", async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    const warnings: string[] = [];
    client.on("notice", (notice) => warnings.push(`${notice.severity}: ${notice.message}`));
    await client.connect();
    try {
      await client.query("begin");
      await client.query("set local role authenticated");
      await client.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: users[0].id, role: "authenticated" }),
      ]);
      await client.query("select realtime.send('{\"x\":1}'::jsonb, 'e', 'fx-rtb:items')");
      await client.query("commit");
    } finally {
      await client.end();
    }
    expect(warnings).toEqual([
      expect.stringMatching(/^WARNING: ErrorSendingBroadcastMessage: new row violates row-level security policy for table "messages"/),
    ]);
  });
});

describe("delivery", () => {
  test("private = false reaches the topic's public channels only; private (the default) its private channels only", async () => {
    const name = "fx-rtb:items";
    const open = await listen("anon", name, false);
    const closed = await listen(users[0], name);
    await send({ n: 1 }, "to-public", name, false);
    await send({ n: 2 }, "to-private", name);
    await waitFor("both", () => open.got.length === 1 && closed.got.length === 1);
    await send({ n: 3 }, "marker", name, false);
    await send({ n: 3 }, "marker", name, true);
    await waitFor("markers", () => open.got.length === 2 && closed.got.length === 2);
    expect(open.got.map((m) => m.event)).toEqual(["to-public", "marker"]);
    expect(closed.got.map((m) => m.event)).toEqual(["to-private", "marker"]);
    expect(open.got[0]).toEqual({
      type: "broadcast",
      event: "to-public",
      payload: { n: 1, id: expect.any(String) },
      meta: { id: open.got[0].payload.id },
    });
  });

  test("a rolled-back transaction sends nothing", async () => {
    const { got } = await listen(users[0], topic);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("begin");
      await client.query("select realtime.send('{\"n\":\"rolled back\"}'::jsonb, 'rb', $1)", [topic]);
      await client.query("insert into fx_rtb.items (body) values ('rolled back')");
      await client.query("rollback");
      await client.query("select realtime.send('{\"n\":\"kept\"}'::jsonb, 'rb', $1)", [topic]);
    } finally {
      await client.end();
    }
    await waitFor("the committed message", () => got.some((m) => m.payload.n === "kept"));
    expect(got.map((m) => m.payload.n ?? m.event)).toEqual(["kept"]);
  });

  test("messages arrive in commit order: within a transaction, and across interleaved transactions", async () => {
    const name = "fx-rtb:order";
    const { got } = await listen(users[0], name);
    const [a, b] = [new pg.Client({ connectionString: databaseUrl }), new pg.Client({ connectionString: databaseUrl })];
    await a.connect();
    await b.connect();
    try {
      await a.query("begin");
      await a.query("select realtime.send(jsonb_build_object('n', 'a1'), 'o', $1)", [name]);
      await b.query("begin");
      await b.query("select realtime.send(jsonb_build_object('n', 'b' || i), 'o', $1) from generate_series(1, 20) i", [name]);
      await a.query("select realtime.send(jsonb_build_object('n', 'a2'), 'o', $1)", [name]);
      await b.query("commit"); // b commits first, so its 20 come first
      await a.query("commit");
      for (let i = 1; i <= 5; i++) await a.query("select realtime.send(jsonb_build_object('n', 'c' || $2::int), 'o', $1)", [name, i]);
    } finally {
      await a.end();
      await b.end();
    }
    await waitFor("27 messages", () => got.length === 27);
    expect(got.map((m) => m.payload.n)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `b${i + 1}`),
      "a1",
      "a2",
      "c1",
      "c2",
      "c3",
      "c4",
      "c5",
    ]);
  });

  test("a subscriber the select policy refuses cannot join and receives nothing", async () => {
    const [reader, outsider] = users;
    const client = await realtimeClient({ token: outsider.token });
    const refused = client.channel(topic, { config: { private: true } });
    const heard: unknown[] = [];
    refused.on("broadcast", { event: "*" }, (m) => heard.push(m));
    const result = await subscribe(refused);
    expect(result.status).toBe("CHANNEL_ERROR");
    expect(result.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`);
    await refused.unsubscribe();
    // a raw socket that ignores the refusal hears nothing either
    const socket = await RawSocket.open("2.0.0");
    socket.send(JSON.stringify(["1", "1", `realtime:${topic}`, "phx_join", { config: { private: true }, access_token: outsider.token }]));
    await socket.next("join refused", (f: unknown[]) => f[1] === "1");
    const member = await listen(reader, topic);
    await send({ secret: true }, "secret", topic);
    await waitFor("the member hears it", () => member.got.some((m) => m.event === "secret"));
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    expect(socket.json().filter((f) => (f as unknown[])[3] === "broadcast")).toEqual([]);
    socket.close();
  });

  test("a new access token re-authorises the channel: a reader whose access was revoked is shut out and stops receiving", async () => {
    const [reader, , other] = users;
    const session = { token: reader.token };
    const client = await realtimeClient(session);
    const channel = client.channel(topic, { config: { private: true } });
    const got: Received[] = [];
    const statuses: string[] = [];
    const system: Array<{ status: string; message: string }> = [];
    channel.on("broadcast", { event: "*" }, (m) => got.push(m as Received)).on("system", {}, (m) => system.push(m));
    await new Promise<void>((resolve) => channel.subscribe((status) => (statuses.push(status), status === "SUBSCRIBED" && resolve())));
    const witness = await listen(other, topic);
    await send({ n: "before" }, "revoke", topic);
    await waitFor("before", () => got.length === 1);
    // revoked in the database: nothing changes until the socket presents a new token…
    await sql("delete from fx_rtb.readers where topic = $1 and user_id = $2", [topic, reader.id]);
    await send({ n: "still" }, "revoke", topic);
    await waitFor("still (authorised at join)", () => got.length === 2);
    // …which is checked against the policies again
    session.token = userToken(reader.id, reader.email, 1800);
    await client.realtime.setAuth();
    await waitFor("the channel is shut", () => statuses.includes("CLOSED"));
    expect(system).toEqual([
      expect.objectContaining({ status: "error", message: `You no longer have permission to read from this Channel topic: ${topic}` }),
    ]);
    await send({ n: "after" }, "revoke", topic);
    await waitFor("the witness hears after", () => witness.got.some((m) => m.payload.n === "after"));
    await new Promise((r) => setTimeout(r, 300));
    expect(got.map((m) => m.payload.n)).toEqual(["before", "still"]);
    await sql("insert into fx_rtb.readers (topic, user_id) values ($1, $2)", [topic, reader.id]);
  });

  test("one message reaches every joined channel of its topic, on both protocol versions", async () => {
    const name = "fx-rtb:fanout";
    const listeners = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const client = await realtimeClient("anon", i % 2 === 0 ? "2.0.0" : "1.0.0");
        const channel = client.channel(name);
        const got: Received[] = [];
        channel.on("broadcast", { event: "fan" }, (m) => got.push(m as Received));
        expect((await subscribe(channel)).status).toBe("SUBSCRIBED");
        return got;
      }),
    );
    await send({ n: "ü ✓" }, "fan", name, false);
    await waitFor("everyone", () => listeners.every((got) => got.length === 1));
    for (const got of listeners) expect(got[0].payload.n).toBe("ü ✓");
  });
});

describe("old messages", () => {
  test("days older than three days are dropped; writers never wait for it", async () => {
    const day = 86_400_000;
    const old = new Date(Date.now() - 5 * day);
    const recent = new Date(Date.now() - 2 * day);
    const admin = new pg.Client({ connectionString: databaseUrl });
    const writer = new pg.Client({ connectionString: databaseUrl });
    const other = new pg.Client({ connectionString: databaseUrl });
    for (const c of [admin, writer, other]) await c.connect();
    try {
      for (const [date, event] of [
        [old, "day-5"],
        [recent, "day-2"],
      ] as const) {
        await createMessagePartition(admin, date);
        await admin.query(
          "insert into realtime.messages (topic, extension, payload, event, inserted_at) values ('fx-rtb:old', 'broadcast', '{}', $1, $2)",
          [event, date.toISOString()],
        );
      }
      // a writer holds today's partition in an open transaction while the cleanup runs
      await writer.query("begin");
      await writer.query("select realtime.send('{}'::jsonb, 'open', 'fx-rtb:old', false)");
      let settled = false;
      const cleanup = dropOldMessagePartitions(admin).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 500));
      // another writer is not held up meanwhile (a plain DROP of a partition would lock the whole table)
      await other.query("set lock_timeout = '3s'");
      await other.query("select realtime.send('{}'::jsonb, 'meanwhile', 'fx-rtb:old', false)");
      expect(settled).toBe(false); // the cleanup waits for the open transaction, not the other way round
      await writer.query("commit");
      const dropped = await cleanup;
      expect(dropped).toContain(partitionName(old));
      expect(dropped).not.toContain(partitionName(recent));
      const left = await sql<{ event: string }>("select event from realtime.messages where topic = 'fx-rtb:old' order by inserted_at");
      expect(left.map((r) => r.event)).toEqual(["day-2", "open", "meanwhile"]);
      const partitions = await sql<{ name: string }>(
        "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'realtime.messages'::regclass",
      );
      expect(partitions.map((p) => p.name)).toContain(partitionName(recent));
      expect(partitions.map((p) => p.name)).not.toContain(partitionName(old));
      expect(await sql("select 1 from pg_class where relname = $1", [partitionName(old)])).toEqual([]);
    } finally {
      await writer.query("rollback").catch(() => undefined);
      for (const c of [admin, writer, other]) await c.end();
      await sql("delete from realtime.messages where topic = 'fx-rtb:old'");
    }
  });
});

describe("Realtime's schema on a cluster an older stack created", () => {
  test("a plain realtime.messages becomes the partitioned one, keeping its policies; applying again does nothing", async () => {
    const database = `fx_rtb_upgrade_${process.pid}`;
    await sql(`create database ${database}`);
    const client = new pg.Client({ connectionString: databaseUrl.replace(/\/postgres$/, `/${database}`) });
    await client.connect();
    try {
      // what an older stack's base schema left
      await client.query(`
        create schema realtime;
        create table realtime.schema_migrations (version bigint primary key, inserted_at timestamp(0));
        create function realtime.topic() returns text language sql stable as $$ select nullif(current_setting('realtime.topic', true), '')::text $$;
        create table realtime.messages (topic text not null, extension text not null, payload jsonb, event text, private boolean default false,
          updated_at timestamp not null default now(), inserted_at timestamp not null default now(), id uuid not null default gen_random_uuid(),
          primary key (id, inserted_at));
        alter table realtime.messages enable row level security;
        create policy fx_read on realtime.messages for select to authenticated using (realtime.topic() like 'fx:%');
        create policy fx_presence on realtime.messages as restrictive for insert to anon, authenticated with check (extension = 'presence');`);
      expect(await applyRealtimeSchema(client)).toBe(true);
      const policies = await client.query<{
        name: string;
        permissive: boolean;
        cmd: string;
        roles: string;
        using: string | null;
        check: string | null;
      }>(
        `select polname as name, polpermissive as permissive, polcmd as cmd, polroles::regrole[]::text as roles,
                pg_get_expr(polqual, polrelid) as using, pg_get_expr(polwithcheck, polrelid) as check
           from pg_policy where polrelid = 'realtime.messages'::regclass order by polname`,
      );
      expect(policies.rows).toEqual([
        {
          name: "fx_presence",
          permissive: false,
          cmd: "a",
          roles: "{anon,authenticated}",
          using: null,
          check: "(extension = 'presence'::text)",
        },
        { name: "fx_read", permissive: true, cmd: "r", roles: "{authenticated}", using: "(realtime.topic() ~~ 'fx:%'::text)", check: null },
      ]);
      const shape = await client.query(
        `select (select relkind from pg_class where oid = 'realtime.messages'::regclass) as kind,
                to_regclass('realtime.messages_unpartitioned') as leftover,
                to_regprocedure('realtime.send(jsonb,text,text,boolean)') is not null as send,
                to_regprocedure('realtime.broadcast_changes(text,text,text,text,text,record,record,text)') is not null as broadcast_changes,
                exists (select 1 from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
                        where p.pubname = 'supabase_realtime_messages_publication' and r.prrelid = 'realtime.messages'::regclass) as published`,
      );
      expect(shape.rows).toEqual([{ kind: "p", leftover: null, send: true, broadcast_changes: true, published: true }]);
      expect(await applyRealtimeSchema(client)).toBe(false);
    } finally {
      await client.end();
      await sql(`drop database ${database} with (force)`);
    }
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { packageDir } from "./paths.ts";

/**
 * realtime.messages housekeeping, as Supabase Realtime does it: one partition per UTC day
 * (`messages_YYYY_MM_DD`), created ahead, and dropped once the whole day is more than 72 hours old.
 */
const realtimeSchemaPath = path.join(packageDir, "db", "realtime-schema.sql");
/** Recorded in realtime.schema_migrations once db/realtime-schema.sql has been applied; bump it when the file changes. */
const realtimeSchemaVersion = "20261123180000";
const retentionHours = 72;
const daysAhead = 3;

type Queryable = Pick<pg.Client, "query">;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

export function partitionName(date: Date): string {
  return `messages_${day(date).replaceAll("-", "_")}`;
}

/** Applies db/realtime-schema.sql unless realtime.schema_migrations says it is in place. */
export async function applyRealtimeSchema(client: Queryable): Promise<boolean> {
  const { rows } = await client.query("select 1 from realtime.schema_migrations where version = $1", [realtimeSchemaVersion]);
  if (rows.length > 0) return false;
  await client.query(readFileSync(realtimeSchemaPath, "utf8"));
  await client.query("insert into realtime.schema_migrations (version, inserted_at) values ($1, now()) on conflict do nothing", [
    realtimeSchemaVersion,
  ]);
  return true;
}

/** Creates the partitions from yesterday to `daysAhead` days after `now` (the database runs in UTC). */
export async function createMessagePartitions(client: Queryable, now = new Date()): Promise<void> {
  for (let offset = -1; offset <= daysAhead; offset++) await createMessagePartition(client, addDays(now, offset));
}

export async function createMessagePartition(client: Queryable, date: Date): Promise<void> {
  const from = addDays(date, 0);
  await client.query(
    `create table if not exists realtime.${partitionName(from)} partition of realtime.messages for values from ('${day(from)}') to ('${day(addDays(from, 1))}')`,
  );
}

/**
 * Drops the day partitions dated before the day 72 hours before `now` (Realtime's janitor rule:
 * a message goes once its whole day is more than three days old). Each is first detached CONCURRENTLY, which never takes a lock that writers wait for; a detach
 * interrupted earlier is finalized. Returns the names dropped.
 */
export async function dropOldMessagePartitions(client: Queryable, now = new Date()): Promise<string[]> {
  const limit = day(new Date(now.getTime() - retentionHours * 3_600_000));
  const { rows } = await client.query<{ name: string; pending: boolean }>(
    `select c.relname as name, i.inhdetachpending as pending
       from pg_inherits i
       join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'realtime.messages'::regclass`,
  );
  const dropped: string[] = [];
  for (const { name, pending } of rows) {
    const match = /^messages_(\d{4})_(\d\d)_(\d\d)$/.exec(name);
    if (!match || `${match[1]}-${match[2]}-${match[3]}` >= limit) continue;
    await client.query(`alter table realtime.messages detach partition realtime.${name} ${pending ? "finalize" : "concurrently"}`);
    await client.query(`drop table if exists realtime.${name}`);
    dropped.push(name);
  }
  return dropped;
}

import pg from "pg";
import type { Claims } from "../../jwt.ts";
import { quoteIdent as ident } from "../../sql.ts";
import type { Relation } from "./relations.ts";

/**
 * "Can this subscriber SELECT this row?" — asked of Postgres, under the subscriber's role and
 * claims, so the project's RLS policies decide (as Realtime's apply_rls does). One round trip per
 * batch of changes, whatever the number of distinct (role, claims) groups subscribed.
 */
export interface VisibilityGroup {
  role: string;
  claims: Claims;
  /** Per table: the changes to check, by index, with their primary key values (text). */
  tables: Map<Relation, Array<{ index: number; key: Record<string, string | null> }>>;
}

/**
 * One session-local function per table: for each group, switch role and claims, then ask which of
 * the group's rows exist for it. The query is static plpgsql, so Postgres plans it once and reuses
 * the plan for every group (RLS quals read the claims at run time); a failing group (say, a role
 * the session cannot assume) is reported, not fatal.
 */
function tableFunctionSql(name: string, relation: Relation): string {
  const keys = relation.primaryKey.map((key) => relation.columns.find((c) => c.name === key)!);
  const recordDef = ["i int", ...keys.map((c) => `${ident(c.name)} ${c.sqlType}`)].join(", ");
  const match = keys.map((c) => `t.${ident(c.name)} = k.${ident(c.name)}`).join(" and ");
  return `
create or replace function pg_temp.${name}(groups jsonb, xids bigint[])
returns table (grp int, visible int[], error text)
language plpgsql
set search_path = ''
as $fn$
declare
  g jsonb;
begin
  perform pg_temp.realtime_wait_visible(xids);
  for g in select value from jsonb_array_elements(groups) loop
    grp := (g->>'grp')::int;
    visible := '{}';
    error := null;
    begin
      perform set_config('role', g->>'role', true), set_config('request.jwt.claims', g->>'claims', true);
      select coalesce(array_agg(k.i), '{}') into visible
        from jsonb_to_recordset(g->'rows') as k(${recordDef})
       where exists (select 1 from ${ident(relation.schema)}.${ident(relation.table)} t where ${match});
    exception when others then
      error := sqlerrm;
    end;
    return next;
  end loop;
  perform set_config('role', 'none', true);
end
$fn$;`;
}

/**
 * Postgres writes (and streams) a commit record a moment before the transaction becomes visible
 * to other sessions' snapshots; under load that moment is long enough for an RLS check to miss a
 * row that exists. So the check first waits (up to 1 s) until the batch's transactions are visible.
 */
const waitSql = `
create or replace function pg_temp.realtime_wait_visible(xids bigint[])
returns void
language plpgsql
set search_path = ''
as $fn$
declare
  snap pg_snapshot;
  xmax bigint;
begin
  for attempt in 1..500 loop
    snap := pg_current_snapshot();
    xmax := pg_snapshot_xmax(snap)::text::bigint;
    if not exists (
      select 1 from unnest(xids) x,
        lateral (select ((xmax >> 32) << 32) + x as full_xid) f
       where not pg_visible_in_snapshot(
         (case when f.full_xid >= xmax then f.full_xid - 4294967296 else f.full_xid end)::text::xid8, snap)
    ) then
      return;
    end if;
    perform pg_sleep(0.002);
  end loop;
end
$fn$;`;

export class Visibility {
  private readonly config: pg.ClientConfig;
  private client?: Promise<pg.Client>;
  /** Functions created on the current connection, by relid (recreated when the relation changes). */
  private functions = new Map<number, { relation: Relation; name: string }>();
  private counter = 0;

  constructor(config: pg.ClientConfig) {
    this.config = config;
  }

  private connect(): Promise<pg.Client> {
    this.client ??= (async () => {
      const client = new pg.Client(this.config);
      const forget = () => {
        this.client = undefined;
        this.functions = new Map();
      };
      client.on("error", forget);
      client.on("end", forget);
      try {
        await client.connect();
        await client.query(waitSql);
        return client;
      } catch (error) {
        forget();
        await client.end().catch(() => undefined);
        throw error;
      }
    })();
    return this.client;
  }

  private async functionFor(client: pg.Client, relation: Relation): Promise<string> {
    const existing = this.functions.get(relation.relid);
    if (existing?.relation === relation) return existing.name;
    if (existing) await client.query(`drop function if exists pg_temp.${existing.name}(jsonb, bigint[])`);
    const name = `realtime_visible_${relation.relid}_${++this.counter}`;
    await client.query(tableFunctionSql(name, relation));
    this.functions.set(relation.relid, { relation, name });
    return name;
  }

  /** For each group (by position): the indexes of the changes it may see, or an error. One round trip. */
  async check(groups: VisibilityGroup[], xids: number[]): Promise<Array<{ visible: Set<number>; error?: string }>> {
    if (groups.length === 0) return [];
    const client = await this.connect();
    const perTable = new Map<Relation, Array<{ grp: number; role: string; claims: string; rows: Array<Record<string, unknown>> }>>();
    groups.forEach((group, grp) => {
      const claims = JSON.stringify(group.claims);
      for (const [relation, rows] of group.tables) {
        const list = perTable.get(relation) ?? [];
        perTable.set(relation, list);
        list.push({ grp, role: group.role, claims, rows: rows.map(({ index, key }) => ({ i: index, ...key })) });
      }
    });
    const parts: string[] = [];
    const values: unknown[] = [xids];
    for (const [relation, input] of perTable) {
      values.push(JSON.stringify(input));
      parts.push(
        `select grp, visible, error from pg_temp.${await this.functionFor(client, relation)}($${values.length}::jsonb, $1::bigint[])`,
      );
    }
    const { rows } = await client.query<{ grp: number; visible: number[]; error: string | null }>(parts.join(" union all "), values);
    const result = groups.map(() => ({ visible: new Set<number>(), error: undefined as string | undefined }));
    for (const row of rows) {
      for (const index of row.visible) result[row.grp].visible.add(index);
      if (row.error) result[row.grp].error = row.error;
    }
    return result;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => undefined);
  }
}

import pg from "pg";
import type { Claims } from "../../jwt.ts";
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

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
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
create or replace function pg_temp.${name}(groups jsonb)
returns table (grp int, visible int[], error text)
language plpgsql as $fn$
declare
  g jsonb;
begin
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

export class Visibility {
  private readonly config: pg.ClientConfig;
  private client?: Promise<pg.Client>;
  /** Functions created on the current connection, by relation (recreated when the relation changes). */
  private functions = new Map<Relation, string>();
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
    let name = this.functions.get(relation);
    if (!name) {
      name = `realtime_visible_${relation.relid}_${++this.counter}`;
      await client.query(tableFunctionSql(name, relation));
      this.functions.set(relation, name);
    }
    return name;
  }

  /** For each group (by position): the indexes of the changes it may see, or an error. One round trip. */
  async check(groups: VisibilityGroup[]): Promise<Array<{ visible: Set<number>; error?: string }>> {
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
    const values: string[] = [];
    for (const [relation, input] of perTable) {
      values.push(JSON.stringify(input));
      parts.push(`select grp, visible, error from pg_temp.${await this.functionFor(client, relation)}($${values.length}::jsonb)`);
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

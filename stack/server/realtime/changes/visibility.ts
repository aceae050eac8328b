import pg from "pg";
import type { Claims } from "../../jwt.ts";
import type { Relation } from "./relations.ts";

/**
 * "Can this subscriber SELECT this row?" — asked of Postgres, under the subscriber's role and
 * claims, so the project's RLS policies decide (as Realtime's apply_rls does). One round trip per
 * batch of changes: a session-local (pg_temp) function loops over the distinct (role, claims)
 * groups, switches role and claims for each, and runs one EXISTS query per table.
 */
export interface VisibilityGroup {
  role: string;
  claims: Claims;
  /** Per table: the changes to check, by index, with their primary key values (text). */
  tables: Map<Relation, Array<{ index: number; key: Record<string, string | null> }>>;
}

const functionSql = `
create or replace function pg_temp.realtime_visible(groups jsonb)
returns table (grp int, visible int[], error text)
language plpgsql as $$
declare
  g jsonb;
  q jsonb;
  found int[];
begin
  for g in select value from jsonb_array_elements(groups) loop
    grp := (g->>'grp')::int;
    visible := '{}';
    error := null;
    begin
      perform set_config('role', g->>'role', true), set_config('request.jwt.claims', g->>'claims', true),
              set_config('request.jwt.claim.sub', coalesce(g->'claimsJson'->>'sub', ''), true),
              set_config('request.jwt.claim.role', g->>'role', true);
      for q in select value from jsonb_array_elements(g->'queries') loop
        execute q->>'sql' into found using q->'rows';
        visible := visible || coalesce(found, '{}');
      end loop;
    exception when others then
      error := sqlerrm;
    end;
    return next;
  end loop;
  perform set_config('role', 'none', true);
end
$$;`;

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function existsSql(relation: Relation): string {
  const keys = relation.primaryKey.map((name) => relation.columns.find((c) => c.name === name)!);
  const recordDef = ["i int", ...keys.map((c) => `${ident(c.name)} ${c.sqlType}`)].join(", ");
  const match = keys.map((c) => `t.${ident(c.name)} = k.${ident(c.name)}`).join(" and ");
  return `select array_agg(k.i) from jsonb_to_recordset($1) as k(${recordDef}) where exists (select 1 from ${ident(relation.schema)}.${ident(relation.table)} t where ${match})`;
}

export class Visibility {
  private readonly config: pg.ClientConfig;
  private client?: Promise<pg.Client>;

  constructor(config: pg.ClientConfig) {
    this.config = config;
  }

  private connect(): Promise<pg.Client> {
    this.client ??= (async () => {
      const client = new pg.Client(this.config);
      client.on("error", () => {
        this.client = undefined;
      });
      client.on("end", () => {
        this.client = undefined;
      });
      try {
        await client.connect();
        await client.query(functionSql);
        return client;
      } catch (error) {
        this.client = undefined;
        await client.end().catch(() => undefined);
        throw error;
      }
    })();
    return this.client;
  }

  /** For each group (by position): the indexes of the changes it may see, or an error. */
  async check(groups: VisibilityGroup[]): Promise<Array<{ visible: Set<number>; error?: string }>> {
    if (groups.length === 0) return [];
    const input = groups.map((group, grp) => ({
      grp,
      role: group.role,
      claims: JSON.stringify(group.claims),
      claimsJson: group.claims,
      queries: [...group.tables].map(([relation, rows]) => ({ sql: existsSql(relation), rows: rows.map(({ index, key }) => ({ i: index, ...key })) })),
    }));
    const client = await this.connect();
    const { rows } = await client.query<{ grp: number; visible: number[]; error: string | null }>("select grp, visible, error from pg_temp.realtime_visible($1::jsonb)", [
      JSON.stringify(input),
    ]);
    const result = groups.map(() => ({ visible: new Set<number>() as Set<number>, error: undefined as string | undefined }));
    for (const row of rows) result[row.grp] = { visible: new Set(row.visible), error: row.error ?? undefined };
    return result;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => undefined);
  }
}

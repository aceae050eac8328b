import type pg from "pg";
import type { RelationColumn } from "./pgoutput.ts";

/** What a change needs to know about its table, from pgoutput's Relation message and the catalog. */
export interface Relation {
  relid: number;
  schema: string;
  table: string;
  columns: Array<RelationColumn & { type: string; sqlType: string }>;
  primaryKey: string[];
  rlsEnabled: boolean;
}

const privilegeTtlMs = 2000;

/** Relation metadata and per-role column privileges, refreshed when Postgres announces a relation. */
export class Relations {
  private readonly pool: pg.Pool;
  private readonly relations = new Map<number, Relation>();
  private readonly privileges = new Map<string, { at: number; columns: Set<string> }>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  get(relid: number): Relation | undefined {
    return this.relations.get(relid);
  }

  async refresh(relid: number, schema: string, table: string, columns: RelationColumn[]): Promise<void> {
    const { rows } = await this.pool.query<{ attname: string; typname: string; sqltype: string; pk: boolean; rls: boolean }>(
      `select a.attname, t.typname, format_type(a.atttypid, a.atttypmod) as sqltype,
              coalesce(a.attnum = any(i.indkey), false) as pk, c.relrowsecurity as rls
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_type t on t.oid = a.atttypid
         left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped`,
      [relid],
    );
    const byName = new Map(rows.map((r) => [r.attname, r]));
    this.relations.set(relid, {
      relid,
      schema,
      table,
      columns: columns.map((c) => ({ ...c, type: byName.get(c.name)?.typname ?? "text", sqlType: byName.get(c.name)?.sqltype ?? "text" })),
      primaryKey: rows.filter((r) => r.pk).map((r) => r.attname),
      rlsEnabled: rows[0]?.rls ?? false,
    });
    for (const key of this.privileges.keys()) if (key.endsWith(`:${relid}`)) this.privileges.delete(key);
  }

  /** Columns of the table the role may SELECT (what Realtime shows it); cached briefly. */
  async selectable(role: string, relid: number): Promise<Set<string>> {
    const key = `${role}:${relid}`;
    const cached = this.privileges.get(key);
    if (cached && Date.now() - cached.at < privilegeTtlMs) return cached.columns;
    let columns = new Set<string>();
    try {
      const { rows } = await this.pool.query<{ attname: string }>(
        "select attname from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped and has_column_privilege($2, attrelid, attnum, 'SELECT')",
        [relid, role],
      );
      columns = new Set(rows.map((r) => r.attname));
    } catch {
      // an unknown role sees nothing
    }
    this.privileges.set(key, { at: Date.now(), columns });
    return columns;
  }
}

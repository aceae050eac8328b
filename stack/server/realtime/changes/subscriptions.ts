import type pg from "pg";
import type { Claims } from "../../jwt.ts";
import { type TypedFilter, parseFilters } from "./filters.ts";
import type { ChangeBinding, ChangeParams } from "./types.ts";

export const publication = "supabase_realtime";
const events = new Set(["*", "INSERT", "UPDATE", "DELETE"]);

/** One postgres_changes binding resolved against the publication: which tables, which events, which filters. */
export interface ResolvedBinding {
  id: number;
  event: "*" | "INSERT" | "UPDATE" | "DELETE";
  /** relid → filters typed for that table's columns. */
  tables: Map<number, TypedFilter[]>;
}

/** Elixir's inspect of a string-keyed map, as Realtime quotes subscription params in its errors. */
function inspectParams(params: ChangeParams): string {
  const entries = Object.keys(params)
    .sort()
    .map(
      (key) =>
        `${JSON.stringify(key)} => ${typeof params[key] === "string" ? JSON.stringify(params[key]) : JSON.stringify(params[key] ?? null)}`,
    );
  return `%{${entries.join(", ")}}`;
}

function failure(message: string, params: ChangeParams): string {
  return `Subscription insert failed with error: ${message}. Check that tables are part of publication ${publication} and subscription params are correct: ${inspectParams(params)}`;
}

function likePattern(value: string): string {
  return value === "*" ? "%" : value;
}

/**
 * Resolves and validates a channel's bindings as Realtime's subscription insert does: the
 * schema/table must name tables of the publication, filters must name columns the role may
 * select, and filter values must cast to the column's type. Throws the message Realtime reports.
 */
export async function resolveBindings(pool: pg.Pool, bindings: ChangeBinding[], claims: Claims): Promise<ResolvedBinding[]> {
  const role = String(claims.role);
  const { rows: roles } = await pool.query("select 1 from pg_roles where rolname = $1", [role]);
  const resolved: ResolvedBinding[] = [];
  for (const { id, params } of bindings) {
    const event = typeof params.event === "string" ? params.event.toUpperCase() : "";
    if (!events.has(event)) throw new Error(`Error parsing \`event\` params: ${JSON.stringify(params.event ?? null)}`);
    const hasSchema = typeof params.schema === "string";
    const hasTable = typeof params.table === "string";
    if (!hasSchema && !hasTable)
      throw new Error("No subscription params provided. Please provide at least a `schema` or `table` to subscribe to.");
    const schema = hasSchema ? (params.schema as string) : "public";
    const table = hasTable ? (params.table as string) : "*";
    let filters: ReturnType<typeof parseFilters> = { ok: true, filters: [] };
    if (params.filter !== undefined && params.filter !== null && params.filter !== "") {
      filters = parseFilters(String(params.filter));
      if (!filters.ok) throw new Error(filters.message);
    }
    const { rows: tables } = await pool.query<{ relid: number }>(
      `select format('%I.%I', schemaname, tablename)::regclass::oid::int as relid
         from pg_publication_tables where pubname = $1 and schemaname like $2 and tablename like $3`,
      [publication, likePattern(schema), likePattern(table)],
    );
    if (roles.length === 0) throw new Error(failure(`ERROR 22023 (invalid_parameter_value) role "${role}" does not exist`, params));
    if (tables.length === 0) {
      throw new Error(
        `Subscription insert failed with 0 rows. Check that tables are part of publication ${publication} and subscription params are correct: ${inspectParams(params)}`,
      );
    }
    const typed = new Map<number, TypedFilter[]>();
    for (const { relid } of tables) {
      const list: TypedFilter[] = [];
      for (const filter of filters.ok ? filters.filters : []) {
        let column: { typname: string; regtype: string; allowed: boolean } | undefined;
        try {
          const { rows } = await pool.query<{ typname: string; regtype: string; allowed: boolean }>(
            `select t.typname, a.atttypid::regtype::text as regtype, has_column_privilege($3, a.attrelid, a.attnum, 'SELECT') as allowed
               from pg_attribute a join pg_type t on t.oid = a.atttypid
              where a.attrelid = $1 and a.attname = $2 and a.attnum > 0 and not a.attisdropped`,
            [relid, filter.column, role],
          );
          column = rows[0];
        } catch (error) {
          throw new Error(failure(`ERROR ${(error as { code?: string }).code ?? "XX000"} ${(error as Error).message}`, params));
        }
        if (!column?.allowed) throw new Error(failure(`ERROR P0001 (raise_exception) invalid column for filter ${filter.column}`, params));
        try {
          // regtype text comes from the catalog, so it is safe to splice into the cast
          const { rows } = await pool.query<{ values: string[] }>(
            `select array(select x::text from unnest($1::text[]::${column.regtype}[]) x) as values`,
            [filter.values],
          );
          list.push({ ...filter, type: column.typname, values: rows[0].values });
        } catch (error) {
          throw new Error(failure(`ERROR ${(error as { code?: string }).code ?? "XX000"} ${(error as Error).message}`, params));
        }
      }
      typed.set(relid, list);
    }
    resolved.push({ id, event: event as ResolvedBinding["event"], tables: typed });
  }
  return resolved;
}

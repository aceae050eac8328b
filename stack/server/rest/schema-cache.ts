import type pg from "pg";
import { quoteIdent } from "../sql.ts";

/** What PostgREST's schema cache knows, read from pg_catalog once per (re)load. */
export interface Column {
  name: string;
  type: string;
  typeName: string;
  nullable: boolean;
  default: string | null;
}

export interface Relation {
  schema: string;
  name: string;
  kind: "table" | "view";
  columns: Map<string, Column>;
  primaryKey: string[];
  uniqueKeys: string[][];
  /** Computed fields: functions taking this relation's row type, by name → qualified function. */
  computed: Map<string, string>;
}

export interface ForeignKey {
  name: string;
  source: { schema: string; table: string; columns: string[] };
  target: { schema: string; table: string; columns: string[] };
}

export interface RoutineParam {
  name: string;
  type: string;
  hasDefault: boolean;
  variadic: boolean;
}

export interface Routine {
  schema: string;
  name: string;
  params: RoutineParam[];
  volatility: "i" | "s" | "v";
  returnsSet: boolean;
  /** scalar: a single value; composite: rows of `returnColumns`; void: nothing. */
  returnKind: "scalar" | "composite" | "void";
  returnType: string;
  /** The table or view whose row type the function returns, when it returns one. */
  returnRelation?: { schema: string; name: string };
  returnColumns: string[];
}

export interface SchemaCache {
  schemas: string[];
  /**
   * Per role, the settings `ALTER ROLE … SET` gives it (PostgREST applies them when it impersonates
   * the role), completed with the authenticator's values so one role's timeout never outlives it.
   */
  roleSettings: Map<string, string>;
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  routines: Map<string, Routine[]>;
}

export const relationKey = (schema: string, name: string) => `${schema}\u0000${name}`;

const relationsSql = `
select n.nspname as schema, c.relname as name, c.relkind as kind,
  coalesce(json_agg(json_build_object(
    'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'typeName', t.typname,
    'nullable', not a.attnotnull, 'default', pg_get_expr(d.adbin, d.adrelid)
  ) order by a.attnum) filter (where a.attnum is not null), '[]') as columns
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
left join pg_type t on t.oid = a.atttypid
left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
where n.nspname = any($1) and c.relkind in ('r', 'v', 'm', 'f', 'p')
group by n.nspname, c.relname, c.relkind`;

const constraintsSql = `
select con.conname as name, con.contype as type,
  ns1.nspname as source_schema, c1.relname as source_table,
  ns2.nspname as target_schema, c2.relname as target_table,
  array(select a.attname::text from unnest(con.conkey) with ordinality k(attnum, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.i) as source_columns,
  array(select a.attname::text from unnest(con.confkey) with ordinality k(attnum, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.i) as target_columns
from pg_constraint con
join pg_class c1 on c1.oid = con.conrelid
join pg_namespace ns1 on ns1.oid = c1.relnamespace
left join pg_class c2 on c2.oid = con.confrelid
left join pg_namespace ns2 on ns2.oid = c2.relnamespace
where con.contype in ('p', 'u', 'f') and ns1.nspname not in ('pg_catalog', 'information_schema')`;

// Which base-table columns each exposed view selects, to carry foreign keys through views.
const viewColumnsSql = `
select u.view_schema, u.view_name, u.table_schema, u.table_name, array_agg(u.column_name::text) as columns
from information_schema.view_column_usage u
where u.view_schema = any($1)
group by 1, 2, 3, 4`;

// Settings a role may carry that matter per request; applied when the role is impersonated.
const roleSettingNames = ["statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout", "work_mem"];
const roleSettingsSql = `
select r.rolname as role, split_part(c.setting, '=', 1) as name, substr(c.setting, strpos(c.setting, '=') + 1) as value
from pg_db_role_setting s
join pg_roles r on r.oid = s.setrole
cross join lateral unnest(s.setconfig) as c(setting)
where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
  and split_part(c.setting, '=', 1) = any($1)
union all
select null, name, reset_val from pg_settings where name = any($1)`;

const routinesSql = `
select n.nspname as schema, p.proname as name, p.provolatile as volatility, p.proretset as returns_set,
  p.pronargs as nargs, p.pronargdefaults as ndefaults, p.provariadic <> 0 as variadic,
  coalesce(p.proargnames, '{}')::text[] as arg_names,
  coalesce(p.proargmodes::text[], '{}') as arg_modes,
  array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(t, i) order by i) as arg_types,
  format_type(p.prorettype, null) as return_type, rt.typtype as return_typtype, rt.typname as return_typname,
  rn.nspname as return_rel_schema, rc.relname as return_rel_name,
  array(select a.attname::text from pg_attribute a where a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum) as return_rel_columns,
  an.nspname as first_arg_schema, ac.relname as first_arg_table
from pg_proc p
left join pg_type at on at.oid = p.proargtypes[0] and p.pronargs > 0
left join pg_class ac on ac.oid = at.typrelid
left join pg_namespace an on an.oid = ac.relnamespace
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
left join pg_class rc on rc.oid = rt.typrelid
left join pg_namespace rn on rn.oid = rc.relnamespace
where n.nspname = any($1) and p.prokind = 'f'`;

interface RoutineRow {
  schema: string;
  name: string;
  volatility: "i" | "s" | "v";
  returns_set: boolean;
  nargs: number;
  ndefaults: number;
  variadic: boolean;
  arg_names: string[];
  arg_modes: string[];
  arg_types: string[];
  return_type: string;
  return_typtype: string;
  return_typname: string;
  return_rel_schema: string | null;
  first_arg_schema: string | null;
  first_arg_table: string | null;
  return_rel_name: string | null;
  return_rel_columns: string[];
}

function toRoutine(row: RoutineRow): Routine {
  const inParams: RoutineParam[] = [];
  const outNames: string[] = [];
  row.arg_types.forEach((type, i) => {
    const mode = row.arg_modes[i] ?? "i";
    const name = row.arg_names[i] ?? "";
    if (mode === "i" || mode === "b" || mode === "v") inParams.push({ name, type, hasDefault: false, variadic: mode === "v" });
    if (mode === "o" || mode === "b" || mode === "t") outNames.push(name);
  });
  inParams.forEach((param, i) => (param.hasDefault = i >= inParams.length - row.ndefaults));
  const isVoid = row.return_typname === "void";
  const composite = row.return_typtype === "c" || (row.return_typname === "record" && outNames.length > 0);
  return {
    schema: row.schema,
    name: row.name,
    params: inParams,
    volatility: row.volatility,
    returnsSet: row.returns_set,
    returnKind: isVoid ? "void" : composite || row.return_typname === "record" ? "composite" : "scalar",
    returnType: row.return_type,
    returnRelation: row.return_typtype === "c" && row.return_rel_schema && row.return_rel_name ? { schema: row.return_rel_schema, name: row.return_rel_name } : undefined,
    returnColumns: row.return_typtype === "c" ? row.return_rel_columns : outNames,
  };
}

export async function loadSchemaCache(pool: pg.Pool, schemas: string[]): Promise<SchemaCache> {
  const [relationRows, constraintRows, routineRows, viewRows, roleSettingRows] = await Promise.all([
    pool.query<{ schema: string; name: string; kind: string; columns: Column[] }>(relationsSql, [schemas]),
    pool.query<{ name: string; type: string; source_schema: string; source_table: string; target_schema: string | null; target_table: string | null; source_columns: string[]; target_columns: string[] }>(constraintsSql),
    pool.query<RoutineRow>(routinesSql, [schemas]),
    pool.query<{ view_schema: string; view_name: string; table_schema: string; table_name: string; columns: string[] }>(viewColumnsSql, [schemas]),
    pool.query<{ role: string | null; name: string; value: string }>(roleSettingsSql, [roleSettingNames]),
  ]);
  const relations = new Map<string, Relation>();
  for (const row of relationRows.rows) {
    relations.set(relationKey(row.schema, row.name), {
      schema: row.schema,
      name: row.name,
      kind: row.kind === "v" || row.kind === "m" ? "view" : "table",
      columns: new Map(row.columns.map((column) => [column.name, column])),
      primaryKey: [],
      uniqueKeys: [],
      computed: new Map(),
    });
  }
  const allForeignKeys: ForeignKey[] = [];
  for (const row of constraintRows.rows) {
    const relation = relations.get(relationKey(row.source_schema, row.source_table));
    if (row.type === "p" && relation) relation.primaryKey = row.source_columns;
    if ((row.type === "p" || row.type === "u") && relation) relation.uniqueKeys.push(row.source_columns);
    if (row.type === "f" && row.target_schema && row.target_table) {
      allForeignKeys.push({
        name: row.name,
        source: { schema: row.source_schema, table: row.source_table, columns: row.source_columns },
        target: { schema: row.target_schema, table: row.target_table, columns: row.target_columns },
      });
    }
  }
  const exposed = (side: { schema: string; table: string }) => relations.has(relationKey(side.schema, side.table));
  const foreignKeys = allForeignKeys.filter((fk) => exposed(fk.source) && exposed(fk.target));
  foreignKeys.push(...viewForeignKeys(allForeignKeys, viewRows.rows, relations, exposed));
  const routines = new Map<string, Routine[]>();
  for (const row of routineRows.rows) {
    const key = relationKey(row.schema, row.name);
    const routine = toRoutine(row);
    routines.set(key, [...(routines.get(key) ?? []), routine]);
    // A computed field: one row-type parameter (others defaulted), a single scalar result.
    const owner = row.first_arg_schema && row.first_arg_table ? relations.get(relationKey(row.first_arg_schema, row.first_arg_table)) : undefined;
    if (owner && !routine.returnsSet && routine.returnKind === "scalar" && routine.params.slice(1).every((param) => param.hasDefault) && !owner.columns.has(row.name)) {
      owner.computed.set(row.name, `${quoteIdent(row.schema)}.${quoteIdent(row.name)}`);
    }
  }
  return { schemas, relations, foreignKeys, routines, roleSettings: roleSettingsByRole(roleSettingRows.rows) };
}

/** For each role with settings: its values over the authenticator's (or the server defaults). */
function roleSettingsByRole(rows: { role: string | null; name: string; value: string }[]): Map<string, string> {
  const base: Record<string, string> = {};
  for (const row of rows) if (row.role === null) base[row.name] = row.value;
  for (const row of rows) if (row.role === "authenticator") base[row.name] = row.value;
  const out = new Map<string, string>([["", JSON.stringify(base)]]);
  const roles = new Set(rows.map((row) => row.role).filter((role): role is string => role !== null && role !== "authenticator"));
  for (const role of roles) {
    const own = Object.fromEntries(rows.filter((row) => row.role === role).map((row) => [row.name, row.value]));
    out.set(role, JSON.stringify({ ...base, ...own }));
  }
  return out;
}

/**
 * Foreign keys seen through views: a view that selects a base table's foreign-key (or referenced)
 * columns under the same names takes part in that relationship, as PostgREST infers it.
 */
function viewForeignKeys(
  fks: ForeignKey[],
  views: { view_schema: string; view_name: string; table_schema: string; table_name: string; columns: string[] }[],
  relations: Map<string, Relation>,
  exposed: (side: { schema: string; table: string }) => boolean,
): ForeignKey[] {
  const out: ForeignKey[] = [];
  for (const view of views) {
    const relation = relations.get(relationKey(view.view_schema, view.view_name));
    if (!relation) continue;
    const carries = (columns: string[]) => columns.every((c) => view.columns.includes(c) && relation.columns.has(c));
    const viewSide = (columns: string[]) => ({ schema: view.view_schema, table: view.view_name, columns });
    for (const fk of fks) {
      if (fk.source.schema === view.table_schema && fk.source.table === view.table_name && exposed(fk.target) && carries(fk.source.columns)) {
        out.push({ name: fk.name, source: viewSide(fk.source.columns), target: fk.target });
      }
      if (fk.target.schema === view.table_schema && fk.target.table === view.table_name && exposed(fk.source) && carries(fk.target.columns)) {
        out.push({ name: fk.name, source: fk.source, target: viewSide(fk.target.columns) });
      }
    }
  }
  return out;
}

/**
 * A close name among candidates, the way PostgREST's fuzzy-set hints pick one: cosine similarity of
 * character trigrams (then bigrams) finds candidates, Levenshtein similarity ranks them.
 */
export function closestName(target: string, candidates: Iterable<string>, minScore = 0.75): string | null {
  const names = [...new Set(candidates)].filter((name) => name !== target);
  for (const size of [3, 2]) {
    const wanted = grams(target, size);
    const close = names.filter((name) => cosine(wanted, grams(name, size)) >= minScore);
    if (!close.length) continue;
    let best: string | null = null;
    let bestScore = minScore;
    for (const name of close) {
      const score = levenshteinSimilarity(target.toLowerCase(), name.toLowerCase());
      if (score >= bestScore && (best === null || score > bestScore)) [best, bestScore] = [name, score];
    }
    return best;
  }
  return null;
}

function grams(value: string, size: number): Map<string, number> {
  const padded = `-${value.toLowerCase()}-`;
  const out = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size);
    out.set(gram, (out.get(gram) ?? 0) + 1);
  }
  return out;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [gram, count] of a) dot += count * (b.get(gram) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((sum, n) => sum + n * n, 0));
  const denominator = norm(a) * norm(b);
  return denominator ? dot / denominator : 0;
}

function levenshteinSimilarity(a: string, b: string): number {
  if (!a.length && !b.length) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length);
}

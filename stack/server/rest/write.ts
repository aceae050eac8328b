import { conditionSql, orderTermSql, fieldSql } from "./conditions.ts";
import type { ReadNode } from "./read-plan.ts";
import { buildReadSql, type BodyFormat, scopeOf } from "./read.ts";
import type { Relation } from "./schema-cache.ts";
import { type Params, qualified, quoteIdent, quoteLiteral } from "./sql.ts";

/** Insert/upsert/update/delete statements: one statement each, the body always a $n parameter. */

export interface Payload {
  json: string;
  columns: string[];
  isArray: boolean;
  /** Columns some row of the body gives a value (key) for. */
  given: Set<string>;
}

function returningRead(
  node: ReadNode,
  mutation: string,
  format: BodyFormat,
  stripNulls: boolean,
  params: Params,
  countInserted = false,
): string {
  // The read runs over the mutated rows: the CTE `pgrst_mutated` stands in for the table.
  const extraSelect = countInserted ? `(select count(*) from "pgrst_changed" where "pgrst_inserted") as inserted` : undefined;
  const read = buildReadSql(
    node,
    { fromSql: `"pgrst_mutated"`, withConditions: false, count: false, format, stripNulls, extraSelect },
    params,
  );
  if (!countInserted) return `with "pgrst_mutated" as (${mutation}), ${read.slice("with ".length)}`;
  const columns = node.source.columns.map(quoteIdent).join(", ");
  return `with "pgrst_changed" as (${mutation}, (xmax = 0) as "pgrst_inserted"), "pgrst_mutated" as (select ${columns} from "pgrst_changed"), ${read.slice("with ".length)}`;
}

export interface WriteShape {
  /** The representation to return; without one the statement has no RETURNING (no SELECT rights needed). */
  node?: ReadNode;
  format: BodyFormat;
  stripNulls: boolean;
}

export function insertSql(
  relation: Relation,
  payload: Payload,
  options: {
    missingDefault: boolean;
    resolution?: "merge-duplicates" | "ignore-duplicates";
    onConflict?: string[];
    returnPrimaryKey?: boolean;
  },
  shape: WriteShape,
  params: Params,
): string {
  const table = qualified(relation.schema, relation.name);
  const body = params.add(payload.json);
  // An always-identity column listed but given by no row takes its sequence, which needs OVERRIDING
  // (a row giving it a value still fails, as Postgres makes it).
  let overriding = false;
  const values = payload.columns.map((column) => {
    const value = `"pgrst_row".${quoteIdent(column)}`;
    if (!options.missingDefault) return value;
    const info = relation.columns.get(column);
    let fallback = info?.default ?? "null";
    if (info?.identity && info.sequence) {
      fallback = `nextval(${quoteLiteral(info.sequence)}::regclass)`;
      if (info.identity === "always" && !payload.given.has(column)) overriding = true;
    }
    return `case when "pgrst_elem" ? ${quoteLiteral(column)} then ${value} else ${fallback} end`;
  });
  let sql = payload.columns.length
    ? `insert into ${table} (${payload.columns.map(quoteIdent).join(", ")})${overriding ? " overriding system value" : ""} select ${values.join(", ")} from jsonb_array_elements(${body}::jsonb) as "pgrst_elem", jsonb_populate_record(null::${table}, "pgrst_elem") as "pgrst_row"`
    : `insert into ${table} select from jsonb_array_elements(${body}::jsonb) as "pgrst_elem"`;
  if (options.resolution) {
    const target = options.onConflict ?? relation.primaryKey;
    const updates = payload.columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
    sql += ` on conflict (${target.map(quoteIdent).join(", ")}) ${options.resolution === "ignore-duplicates" || !updates.length ? "do nothing" : `do update set ${updates.join(", ")}`}`;
  }
  const merging = options.resolution === "merge-duplicates";
  if (!shape.node) {
    // return=headers-only: the new row's primary key, for the Location header.
    const returning = [
      ...(merging ? ["(xmax = 0) as inserted"] : []),
      ...(options.returnPrimaryKey
        ? relation.primaryKey.map((c) => `${table}.${quoteIdent(c)}::text as ${quoteIdent(`pgrst_pk_${c}`)}`)
        : []),
    ];
    return returning.length ? `${sql} returning ${returning.join(", ")}` : sql;
  }
  return returningRead(shape.node, `${sql} returning ${table}.*`, shape.format, shape.stripNulls, params, merging);
}

interface MutationFilter {
  node: ReadNode;
  limit?: number;
}

function whereSql(relation: Relation, filter: MutationFilter, params: Params): string {
  const alias = relation.name;
  const scope = scopeOf(filter.node);
  const conditions = filter.node.params.conditions.map((c) => conditionSql(scope, c, params));
  if (filter.limit !== undefined) {
    const order = filter.node.params.order.map((term) => orderTermSql(fieldSql(scope, term.field, params), term));
    const inner = `select ${quoteIdent(alias)}.ctid from ${qualified(relation.schema, relation.name)} as ${quoteIdent(alias)}${conditions.length ? ` where ${conditions.join(" and ")}` : ""}${order.length ? ` order by ${order.join(", ")}` : ""} limit ${params.add(filter.limit)}`;
    return ` where ctid = any(array(${inner}))`;
  }
  return conditions.length ? ` where ${conditions.join(" and ")}` : "";
}

export function updateSql(relation: Relation, payload: Payload, filter: MutationFilter, shape: WriteShape, params: Params): string {
  const table = qualified(relation.schema, relation.name);
  const body = params.add(payload.json);
  const sets = payload.columns.map((c) => `${quoteIdent(c)} = "pgrst_row".${quoteIdent(c)}`);
  const sql = `update ${table} as ${quoteIdent(relation.name)} set ${sets.join(", ")} from jsonb_populate_record(null::${table}, (${body}::jsonb)->0) as "pgrst_row"${whereSql(relation, filter, params)}`;
  if (!shape.node) return sql;
  return returningRead(shape.node, `${sql} returning ${quoteIdent(relation.name)}.*`, shape.format, shape.stripNulls, params);
}

export function deleteSql(relation: Relation, filter: MutationFilter, shape: WriteShape, params: Params): string {
  const table = qualified(relation.schema, relation.name);
  const sql = `delete from ${table} as ${quoteIdent(relation.name)}${whereSql(relation, filter, params)}`;
  if (!shape.node) return sql;
  return returningRead(shape.node, `${sql} returning ${quoteIdent(relation.name)}.*`, shape.format, shape.stripNulls, params);
}

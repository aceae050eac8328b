import { castSql, conditionSql, fieldSql, orderTermSql, type Scope } from "./conditions.ts";
import type { OrderTerm, SelectItem } from "./grammar.ts";
import type { EmbedPlan, ReadNode } from "./read-plan.ts";
import { type Params, qualified, quoteIdent } from "./sql.ts";

/** The SQL of a read: one select over a resolved read tree, its embeds as lateral joins. */

export const scopeOf = (node: ReadNode): Scope => ({ alias: node.alias, computed: node.source.relation?.computed });

/** Output column names of a node, needed to spread its columns into the parent. */
function outputNames(node: ReadNode): string[] {
  const names: string[] = [];
  for (const item of node.select) {
    if (item.kind === "star") names.push(...node.source.columns);
    else if (item.kind === "column") names.push(columnOutputName(item));
    else if (item.select.length) {
      const embed = node.embeds.find((e) => e.item === item)!;
      if (item.spread) names.push(...outputNames(embed.node));
      else names.push(embed.outputName);
    }
  }
  return names;
}

/** A column's key in the JSON: its alias, else the aggregate, else the last JSON-path key, else its name. */
function columnOutputName(item: Extract<SelectItem, { kind: "column" }>): string {
  return item.alias ?? item.aggregate ?? (item.field.json.length ? item.field.json[item.field.json.length - 1].key : item.field.name);
}

/** `amount::numeric.sum()::int` → `sum(x.amount::numeric)::int`; `count()` counts rows. */
function columnSql(node: ReadNode, item: Extract<SelectItem, { kind: "column" }>, params: Params): string {
  if (item.aggregate && item.field.name === "*" && !item.field.json.length) return castSql("count(*)", item.aggregateCast);
  const expr = castSql(fieldSql(scopeOf(node), item.field, params), item.cast);
  return item.aggregate ? castSql(`${item.aggregate}(${expr})`, item.aggregateCast) : expr;
}

/** The join condition between an embed's target alias and its parent alias. */
function joinSql(parentAlias: string, embed: EmbedPlan, counter: { n: number }): { from: string; where: string[] } {
  const rel = embed.relationship;
  const target = quoteIdent(embed.node.alias);
  const from = `${qualified(rel.target.schema, rel.target.name)} as ${target}`;
  const parent = quoteIdent(parentAlias);
  if (!rel.junction) {
    return { from, where: rel.pairs.map(([p, t]) => `${target}.${quoteIdent(t)} = ${parent}.${quoteIdent(p)}`) };
  }
  const j = rel.junction;
  const jAlias = quoteIdent(`${j.relation.name}_j${++counter.n}`);
  const onTarget = j.toTarget.source.columns.map(
    (c, i) => `${jAlias}.${quoteIdent(c)} = ${target}.${quoteIdent(j.toTarget.target.columns[i])}`,
  );
  const onParent = j.toParent.source.columns.map(
    (c, i) => `${jAlias}.${quoteIdent(c)} = ${parent}.${quoteIdent(j.toParent.target.columns[i])}`,
  );
  return {
    from: `${from} inner join ${qualified(j.relation.schema, j.relation.name)} as ${jAlias} on ${onTarget.join(" and ")}`,
    where: onParent,
  };
}

interface NodeSql {
  list: string[];
  laterals: { sql: string; filtersParent: boolean }[];
  where: string[];
  orderBy: string[];
  /** With aggregates: every selected expression that is not one. */
  groupBy: string[];
}

function nodeSql(node: ReadNode, params: Params, counter: { n: number }, withConditions: boolean): NodeSql {
  const alias = quoteIdent(node.alias);
  const list: string[] = [];
  const laterals: NodeSql["laterals"] = [];
  const where: string[] = [];
  // PostgREST groups by the other selected columns and embeds (embeds as jsonb, which has equality).
  const aggregated = node.select.some((item) => item.kind === "column" && item.aggregate);
  const groupBy: string[] = [];
  const output = (expr: string, name: string, grouped: boolean) => {
    if (aggregated && grouped) groupBy.push(expr);
    list.push(`${expr} as ${quoteIdent(name)}`);
  };
  for (const item of node.select) {
    if (item.kind === "star") {
      list.push(`${alias}.*`);
      if (aggregated) groupBy.push(`${alias}.*`);
    } else if (item.kind === "column") output(columnSql(node, item, params), columnOutputName(item), !item.aggregate);
    else {
      const embed = node.embeds.find((e) => e.item === item)!;
      const { sql, toOne } = embedInnerSql(node.alias, embed, params, counter);
      const lat = quoteIdent(embed.lateral);
      const inner = item.join === "inner";
      const nullFilter = node.nullFilters.find((f) => f.embed === embed);
      const json = aggregated ? "::jsonb" : "";
      if (item.spread) {
        const names = outputNames(embed.node);
        const body = toOne
          ? sql
          : `select ${names.map((n) => `json_agg("pgrst_x".${quoteIdent(n)}) as ${quoteIdent(n)}`).join(", ")} from (${sql}) as "pgrst_x"`;
        laterals.push({ sql: `${inner && toOne ? "inner" : "left"} join lateral (${body}) as ${lat} on true`, filtersParent: inner });
        for (const n of names) output(toOne ? `${lat}.${quoteIdent(n)}` : `coalesce(${lat}.${quoteIdent(n)}, '[]')${json}`, n, true);
        if (inner && !toOne) where.push(`${lat}.${quoteIdent(names[0] ?? "")} is not null`);
      } else {
        const agg = toOne ? `row_to_json("pgrst_x")` : `json_agg("pgrst_x")`;
        laterals.push({
          sql: `${inner && toOne ? "inner" : "left"} join lateral (select ${agg} as "body" from (${sql}) as "pgrst_x") as ${lat} on true`,
          filtersParent: inner || !!nullFilter,
        });
        // An empty embed (`users!inner()`) only filters: it has no key in the output.
        if (item.select.length) output(toOne ? `${lat}."body"${json}` : `coalesce(${lat}."body", '[]')${json}`, embed.outputName, true);
        if (inner && !toOne) where.push(`${lat}."body" is not null`);
      }
      if (nullFilter)
        where.push(
          `${lat}.${item.spread ? quoteIdent(outputNames(embed.node)[0] ?? "") : '"body"'} is ${nullFilter.isNull ? "" : "not "}null`,
        );
    }
  }
  if (withConditions) for (const condition of node.params.conditions) where.push(conditionSql(scopeOf(node), condition, params));
  if (node.countOnly) return { list: [`count(*) as "count"`], laterals, where, orderBy: [], groupBy: [] };
  const orderBy = node.params.order.map((term) => orderTermSql(orderExprSql(node, term, params, counter), term));
  return { list, laterals, where, orderBy, groupBy: aggregated ? groupBy : [] };
}

function orderExprSql(node: ReadNode, term: OrderTerm, params: Params, counter: { n: number }): string {
  if (!term.relation) return fieldSql(scopeOf(node), term.field, params);
  const embed = node.embeds.find((e) => e.outputName === term.relation)!; // checked by planRead
  const join = joinSql(node.alias, embed, counter);
  return `(select ${fieldSql(scopeOf(embed.node), term.field, params)} from ${join.from} where ${join.where.join(" and ")})`;
}

function embedInnerSql(parentAlias: string, embed: EmbedPlan, params: Params, counter: { n: number }): { sql: string; toOne: boolean } {
  const node = embed.node;
  const join = joinSql(parentAlias, embed, counter);
  const parts = nodeSql(node, params, counter, true);
  const where = [...join.where, ...parts.where];
  let sql = `select ${parts.list.join(", ") || "null"} from ${join.from} ${parts.laterals.map((l) => l.sql).join(" ")} where ${where.join(" and ")}`;
  if (parts.groupBy.length) sql += ` group by ${parts.groupBy.join(", ")}`;
  if (parts.orderBy.length) sql += ` order by ${parts.orderBy.join(", ")}`;
  if (node.params.limit !== undefined && !node.countOnly) sql += ` limit ${params.add(node.params.limit)}`;
  if (node.params.offset !== undefined && !node.countOnly) sql += ` offset ${params.add(node.params.offset)}`;
  return { sql, toOne: embed.toOne };
}

export type BodyFormat = "json" | "object" | "csv" | "none";

export interface ReadOptions {
  /** The FROM item for the root node (a qualified table, a function call, a CTE name). */
  fromSql: string;
  /** SQL that must precede the root FROM item (e.g. `json_to_record(...) as _,`). */
  fromPrefix?: string;
  withConditions: boolean;
  limit?: number;
  offset?: number;
  count: boolean;
  /** count=estimated: count at most this many rows (max_rows + 1); beyond, the planner's estimate may take over. */
  countLimit?: number;
  format: BodyFormat;
  stripNulls: boolean;
  /** Extra output columns of the final select (e.g. how many rows an upsert inserted). */
  extraSelect?: string;
}

/** The body-producing select over `pgrst_source`: row count, JSON/CSV body, optional total. */
function bodySql(format: BodyFormat, stripNulls: boolean): string {
  const rows = `coalesce(json_agg("_postgrest_t"), '[]')`;
  switch (format) {
    case "object":
      return `case when count(*) = 1 then (${stripNulls ? `json_strip_nulls(${rows})` : rows}->0)::text end`;
    case "csv":
      return `(select coalesce(string_agg(k, ','), '') from (select json_object_keys(row_to_json(h)) as k from (select * from "pgrst_source" limit 1) as h) as a)
        || coalesce(chr(10) || string_agg(substring("_postgrest_t"::text, 2, length("_postgrest_t"::text) - 2), chr(10)), '')`;
    case "none":
      return "null::text";
    default:
      return stripNulls ? `json_strip_nulls(${rows})::text` : `${rows}::text`;
  }
}

/** One statement: `with pgrst_source as (select …) select total, page_total, body from pgrst_source`. */
export function buildReadSql(node: ReadNode, options: ReadOptions, params: Params): string {
  const counter = { n: 0 };
  const parts = nodeSql(node, params, counter, options.withConditions);
  const from = `${options.fromPrefix ?? ""}${options.fromSql} as ${quoteIdent(node.alias)}`;
  const where = parts.where.length ? ` where ${parts.where.join(" and ")}` : "";
  let source = `select ${parts.list.join(", ") || "null"} from ${from} ${parts.laterals.map((l) => l.sql).join(" ")}${where}`;
  if (parts.groupBy.length) source += ` group by ${parts.groupBy.join(", ")}`;
  if (parts.orderBy.length) source += ` order by ${parts.orderBy.join(", ")}`;
  if (options.limit !== undefined) source += ` limit ${params.add(options.limit)}`;
  if (options.offset !== undefined && options.offset > 0) source += ` offset ${params.add(options.offset)}`;
  const counted = `select 1 from ${from} ${parts.laterals
    .filter((l) => l.filtersParent)
    .map((l) => l.sql)
    .join(" ")}${where}`;
  const total = !options.count
    ? "null::bigint"
    : options.countLimit === undefined
      ? `(select count(*) from (${counted}) as "pgrst_counted")`
      : `(select count(*) from (${counted} limit ${params.add(options.countLimit)}) as "pgrst_counted")`;
  return `with "pgrst_source" as (${source}) select ${total} as total, count(*) as page_total, ${bodySql(options.format, options.stripNulls)} as body, ${responseGucsSql}${options.extraSelect ? `, ${options.extraSelect}` : ""} from "pgrst_source" as "_postgrest_t"`;
}

/** `explain (format json)` of the rows a count would count: how PostgREST gets a planned count. */
export function buildExplainCountSql(node: ReadNode, fromSql: string, params: Params): string {
  const parts = nodeSql(node, params, { n: 0 }, true);
  const where = parts.where.length ? ` where ${parts.where.join(" and ")}` : "";
  const laterals = parts.laterals
    .filter((l) => l.filtersParent)
    .map((l) => l.sql)
    .join(" ");
  return `explain (format json) select 1 from ${fromSql} as ${quoteIdent(node.alias)} ${laterals}${where}`;
}

/** `response.status` / `response.headers`, which functions may set to shape the HTTP response. */
export const responseGucsSql = `nullif(current_setting('response.headers', true), '') as response_headers, nullif(current_setting('response.status', true), '') as response_status`;

import type { Field, Filter, LogicTree, Operation, OrderTerm } from "./grammar.ts";
import { type Params, pgArrayLiteral, quoteIdent, safeCastType } from "./sql.ts";
import { parseError } from "./errors.ts";

/** SQL for fields, filters, logic trees and order terms of one relation alias; values become $n. */

/** The alias fields are read from, with the relation's computed fields (functions of its row type). */
export type Scope = string | { alias: string; computed?: Map<string, string> };

export function fieldSql(scope: Scope, field: Field, params: Params): string {
  const alias = typeof scope === "string" ? scope : scope.alias;
  const computed = typeof scope === "string" ? undefined : scope.computed?.get(field.name);
  let sql = computed ? `${computed}(${quoteIdent(alias)})` : `${quoteIdent(alias)}.${quoteIdent(field.name)}`;
  for (const step of field.json) {
    const key = /^-?\d+$/.test(step.key) ? `${params.add(step.key)}::int` : `${params.add(step.key)}::text`;
    sql += `${step.arrow}${key}`;
  }
  return sql;
}

export function castSql(expr: string, cast: string | undefined): string {
  if (!cast) return expr;
  const type = safeCastType(cast);
  if (!type) throw parseError("select parameter", cast, 0, `unexpected cast type "${cast}"`);
  // Parenthesised: `::` binds tighter than `->>`, so `x->>'k'::numeric` would cast the key.
  return `(${expr})::${type}`;
}

const binary: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxr: "&<",
  nxl: "&>",
  adj: "-|-",
  isdistinct: "is distinct from",
};
const fts: Record<string, string> = {
  fts: "to_tsquery",
  plfts: "plainto_tsquery",
  phfts: "phraseto_tsquery",
  wfts: "websearch_to_tsquery",
};

function operationSql(expr: string, operation: Operation, params: Params): string {
  const { op } = operation;
  let sql: string;
  if (op === "in") sql = `${expr} = any(${params.add(pgArrayLiteral(operation.list ?? []))})`;
  else if (op === "is") {
    const word = operation.value === "not_null" ? "not null" : operation.value;
    sql = `${expr} is ${word}`;
  } else if (op in fts) {
    const lang = operation.language ? `${params.add(operation.language)}::regconfig, ` : "";
    sql = `${expr} @@ ${fts[op]}(${lang}${params.add(operation.value)})`;
  } else {
    const likeish = op === "like" || op === "ilike";
    const value = likeish ? operation.value.replaceAll("*", "%") : operation.value;
    sql = operation.quantifier
      ? `${expr} ${binary[op]} ${operation.quantifier}(${params.add(value)})`
      : `${expr} ${binary[op]} ${params.add(value)}`;
  }
  return operation.negated ? `not ${sql}` : sql;
}

function filterSql(alias: Scope, filter: Filter, params: Params): string {
  return operationSql(fieldSql(alias, filter.field, params), filter.operation, params);
}

function logicSql(alias: Scope, tree: LogicTree, params: Params): string {
  const parts = tree.children.map((child) => (child.kind === "logic" ? logicSql(alias, child, params) : filterSql(alias, child, params)));
  const joined = `(${parts.join(` ${tree.op} `) || (tree.op === "and" ? "true" : "false")})`;
  return tree.negated ? `not ${joined}` : joined;
}

export function conditionSql(alias: Scope, condition: Filter | LogicTree, params: Params): string {
  return condition.kind === "logic" ? logicSql(alias, condition, params) : filterSql(alias, condition, params);
}

export function orderTermSql(expr: string, term: OrderTerm): string {
  return `${expr}${term.direction ? ` ${term.direction}` : ""}${term.nulls ? ` nulls ${term.nulls === "nullsfirst" ? "first" : "last"}` : ""}`;
}

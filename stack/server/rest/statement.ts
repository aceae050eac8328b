import { errors } from "./errors.ts";
import type { Accepted, CallPlan, MutatePlan, Plan, ReadPlan } from "./plan.ts";
import { type BodyFormat, buildExplainCountSql, buildReadSql, responseGucsSql } from "./read.ts";
import type { ApiRequest, RestOptions } from "./request.ts";
import type { RoutineChoice, RpcArguments } from "./rpc.ts";
import { Params, qualified, quoteIdent } from "./sql.ts";
import { deleteSql, insertSql, updateSql } from "./write.ts";

/**
 * Step 3 of a request: the ONE statement a plan runs as (every value a $n parameter), whether it
 * needs a transaction it can roll back, and the checks on its result that roll it back.
 */

/** The rows a statement returned (the response's one row, for reads and representations) and how many it touched. */
export interface StatementResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

export interface Statement {
  sql: string;
  values: unknown[];
  /** The prepared statement's name, once known (reads reused by shape). */
  name?: string;
  readOnly: boolean;
  /** Runs inside begin … commit, so `check` can still roll it back. */
  transactional: boolean;
  check?: (result: StatementResult) => void;
  /** count=planned|estimated: the EXPLAIN whose row estimate may stand for the total (see execute.ts). */
  explain?: { sql: string; values: unknown[]; count: "planned" | "estimated"; maxRows?: number };
}

export function buildStatement(plan: Plan, request: ApiRequest, options: RestOptions): Statement | undefined {
  switch (plan.kind) {
    case "root":
      return undefined;
    case "read":
      return readStatement(plan, request, options);
    case "mutate":
      return plan.nothing ? undefined : mutateStatement(plan, request);
    case "call":
      return callStatement(plan, request);
  }
}

const bodyFormat = (accepted: Accepted): BodyFormat => (accepted.type === "object" ? "object" : accepted.type === "csv" ? "csv" : "json");

/** exact and estimated count in the statement (estimated only up to max_rows + 1), as PostgREST does. */
function readStatement(plan: ReadPlan, request: ApiRequest, options: RestOptions): Statement {
  const count = request.prefs.count;
  const { maxRows } = options;
  const fromSql = qualified(plan.relation.schema, plan.relation.name);
  const params = new Params();
  const sql = buildReadSql(
    plan.node,
    {
      fromSql,
      withConditions: true,
      limit: request.limit,
      offset: request.offset,
      count: count === "exact" || count === "estimated",
      countLimit: count === "estimated" && maxRows !== undefined ? maxRows + 1 : undefined,
      format: bodyFormat(plan.accepted),
      stripNulls: plan.accepted.stripNulls,
    },
    params,
  );
  let explain: Statement["explain"];
  if (count === "planned" || count === "estimated") {
    const explainParams = new Params();
    explain = { sql: buildExplainCountSql(plan.node, fromSql, explainParams), values: explainParams.values, count, maxRows };
  }
  return { sql, values: params.values, readOnly: true, transactional: false, explain };
}

function mutateStatement(plan: MutatePlan, request: ApiRequest): Statement {
  const { prefs } = request;
  const representation = !!plan.node;
  const shape = { node: plan.node, format: bodyFormat(plan.accepted), stripNulls: plan.accepted.stripNulls };
  const params = new Params();
  let sql: string;
  if (plan.insert) {
    const { missingDefault, resolution, onConflict, locate } = plan.insert;
    sql = insertSql(plan.relation, plan.payload!, { missingDefault, resolution, onConflict, returnPrimaryKey: locate }, shape, params);
  } else if (plan.style === "update") sql = updateSql(plan.relation, plan.payload!, plan.filter!, shape, params);
  else sql = deleteSql(plan.relation, plan.filter!, shape, params);
  const limited = prefs.handling === "strict" && prefs.maxAffected !== undefined;
  const singular = representation && plan.accepted.type === "object";
  return {
    sql,
    values: params.values,
    readOnly: false,
    transactional: limited || singular,
    check: (result) => {
      const affected = representation ? Number(result.rows[0]?.page_total ?? 0) : result.rowCount;
      if (limited && affected > prefs.maxAffected!) throw errors.maxAffected(affected);
      if (singular && affected !== 1) throw errors.singular(affected);
    },
  };
}

/**
 * A function call as the FROM item of the read over its rows. PostgREST counts a function's rows
 * for count=exact|estimated (planned has no estimate for a call); max-affected counts the rows it
 * returns (one for a function not returning a set) and, when they are more, rolls the call back.
 */
function callStatement(plan: CallPlan, request: ApiRequest): Statement {
  const { prefs } = request;
  const { routine } = plan;
  const params = new Params();
  const { prefix, call } = callSql(plan.choice, plan.args, params);
  const counting = prefs.count === "exact" || prefs.count === "estimated";
  let sql: string;
  if (!plan.node) {
    sql = `with "pgrst_source" as (select ${call} as "pgrst_scalar"${prefix ? ` from ${prefix.replace(/, lateral $/, "")}` : ""}) select ${counting ? "1" : "null"}::bigint as total, 1 as page_total, to_json("pgrst_scalar")::text as body, ${responseGucsSql} from "pgrst_source"`;
  } else {
    const format: BodyFormat = !routine.returnsSet ? "object" : bodyFormat(plan.accepted);
    sql = buildReadSql(
      plan.node,
      {
        fromSql: call,
        fromPrefix: prefix ? `${prefix.replace(/lateral $/, "")}lateral ` : "",
        withConditions: true,
        limit: routine.returnsSet ? request.limit : undefined,
        offset: request.offset,
        count: counting,
        format,
        stripNulls: plan.accepted.stripNulls,
      },
      params,
    );
    if (routine.returnKind !== "composite")
      sql = sql.replace(`coalesce(json_agg("_postgrest_t"), '[]')`, `coalesce(json_agg("_postgrest_t".${quoteIdent(routine.name)}), '[]')`);
  }
  const limited = prefs.handling === "strict" && prefs.maxAffected !== undefined;
  return {
    sql,
    values: params.values,
    readOnly: request.method === "GET" || request.method === "HEAD",
    transactional: limited,
    check: (result) => {
      const affected = Number(result.rows[0]?.page_total ?? 0);
      if (limited && affected > prefs.maxAffected!) throw errors.maxAffected(affected);
    },
  };
}

/** The FROM-clause call: `json_to_record($1) as pgrst_args(...), lateral schema.fn(a := …)`. */
function callSql(choice: RoutineChoice, args: RpcArguments, params: Params): { prefix: string; call: string } {
  const { routine } = choice;
  const fn = qualified(routine.schema, routine.name);
  if (choice.wholeBody) {
    const raw = args.kind === "json" ? args.raw : "{}";
    return { prefix: "", call: `${fn}(${params.add(raw)}::${routine.params[0].type})` };
  }
  // Parameter types come from the catalog (format_type), never from the request.
  const typeOf = (type: string) => type;
  if (args.kind === "json") {
    const used = routine.params.filter((p) => args.keys.includes(p.name));
    if (!used.length) return { prefix: "", call: `${fn}()` };
    const columns = used.map((p) => `${quoteIdent(p.name)} ${typeOf(p.type)}`).join(", ");
    const named = used.map((p) => `${p.variadic ? "variadic " : ""}${quoteIdent(p.name)} := "pgrst_args".${quoteIdent(p.name)}`).join(", ");
    return { prefix: `json_to_record(${params.add(args.raw)}::json) as "pgrst_args"(${columns}), lateral `, call: `${fn}(${named})` };
  }
  const named = routine.params
    .filter((p) => args.values.some(([k]) => k === p.name))
    .map((p) => {
      const values = args.values.filter(([k]) => k === p.name).map(([, v]) => v);
      const value =
        p.variadic || (values.length > 1 && p.type.endsWith("[]"))
          ? `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`
          : values[values.length - 1];
      return `${p.variadic ? "variadic " : ""}${quoteIdent(p.name)} := ${params.add(value)}::${typeOf(p.type)}`;
    });
  return { prefix: "", call: `${fn}(${named.join(", ")})` };
}

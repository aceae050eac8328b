import { errors } from "./errors.ts";
import { applied, baseHeaders, bodyFormat, type Call, type LoadedState, limitsFor, respondRows, settingsFor, withResponseGucs } from "./call.ts";
import { negotiate, parseQuery } from "./request.ts";
import { buildReadSql, planRead, responseGucsSql, type BodyFormat, type ReadSource } from "./read.ts";
import { contentRange, contentTypes, send } from "./respond.ts";
import { callSql, chooseRoutine, routineRelation, type RpcArguments } from "./rpc.ts";
import { relationKey } from "./schema-cache.ts";
import { Params, quoteIdent } from "./sql.ts";
import { jsonBody } from "./write-handler.ts";

/** /rpc/fn: POST with JSON arguments, GET/HEAD (read-only) with query-string arguments. */

export async function handleRpc(state: LoadedState, call: Call, name: string): Promise<void> {
  const isRead = call.method === "GET" || call.method === "HEAD";
  if (!isRead && call.method !== "POST") throw errors.invalidRpcMethod(call.method);
  const overloads = state.cache.routines.get(relationKey(call.schema, name)) ?? [];
  const argNames = new Set(overloads.flatMap((r) => r.params.map((p) => p.name)));
  let args: RpcArguments;
  let query;
  if (isRead) {
    query = parseQuery(call.url.searchParams, (key) => argNames.has(key));
    args = { kind: "query", values: query.raw };
  } else {
    query = parseQuery(call.url.searchParams);
    const raw = await jsonBody(call);
    let body: unknown = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        throw errors.invalidBody("Empty or invalid json");
      }
    }
    const singleObject = call.prefs.params === "single-object";
    if (!singleObject && (!body || typeof body !== "object" || Array.isArray(body))) {
      const unnamed = overloads.find((r) => r.params.length === 1 && r.params[0].name === "" && (r.params[0].type === "json" || r.params[0].type === "jsonb"));
      if (!unnamed) throw errors.invalidBody("Empty or invalid json");
    }
    const keys = body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
    args = { kind: "json", body: (body ?? {}) as Record<string, unknown>, keys, raw: raw.trim() ? raw : "{}" };
  }
  const choice = chooseRoutine(state.cache, call.schema, name, args, call.prefs.params === "single-object", !isRead);
  const routine = choice.routine;
  const accepted = negotiate(call.req.headers.accept);
  const params = new Params();
  const { prefix, call: callExpr } = callSql(choice, args, params);
  const settings = settingsFor(state, call, isRead);
  let sql: string;
  let offset = 0;
  const scalar = routine.returnKind !== "composite";
  // PostgREST counts a function's rows for count=exact|estimated (planned has no estimate for a call).
  const counting = call.prefs.count === "exact" || call.prefs.count === "estimated";
  if (scalar && !routine.returnsSet) {
    sql = `with "pgrst_source" as (select ${callExpr} as "pgrst_scalar"${prefix ? ` from ${prefix.replace(/, lateral $/, "")}` : ""}) select ${counting ? "1" : "null"}::bigint as total, 1 as page_total, to_json("pgrst_scalar")::text as body, ${responseGucsSql} from "pgrst_source"`;
  } else {
    const relation = routineRelation(state.cache, routine);
    const source: ReadSource = { name: routine.name, columns: scalar ? [routine.name] : routine.returnColumns, relation };
    const node = planRead(state.cache, source, query.select, query.nodes);
    const limits = limitsFor(state, call, query.nodes.get(""));
    offset = limits.offset;
    const format: BodyFormat = !routine.returnsSet ? "object" : bodyFormat(accepted);
    sql = buildReadSql(node, { fromSql: callExpr, fromPrefix: prefix ? `${prefix.replace(/lateral $/, "")}lateral ` : "", withConditions: true, limit: routine.returnsSet ? limits.limit : undefined, offset: limits.offset, count: counting, format, stripNulls: accepted.stripNulls }, params);
    if (scalar) sql = sql.replace(`coalesce(json_agg("_postgrest_t"), '[]')`, `coalesce(json_agg("_postgrest_t".${quoteIdent(routine.name)}), '[]')`);
  }
  // max-affected counts the rows the function returns (one for a function not returning a set) and,
  // when they are more, rolls the whole call back.
  const limited = call.prefs.handling === "strict" && call.prefs.maxAffected !== undefined;
  const result = await state.executor.run(settings, sql, params.values, {
    transactional: limited,
    check: (out) => {
      const affected = Number(out.rows[0]?.page_total ?? 0);
      if (limited && affected > call.prefs.maxAffected!) throw errors.maxAffected(affected);
    },
  });
  const row = result.rows[0] ?? {};
  const prefApplied = applied(call.prefs, ["count", "handling", "maxAffected"]);
  const singleRange = contentRange(0, 1, row.total === null || row.total === undefined ? null : Number(row.total));
  if (routine.returnKind === "void") {
    const headers: Record<string, string> = { "Content-Range": singleRange };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, withResponseGucs(row, 204, headers), headers, undefined, true);
  }
  if (!routine.returnsSet) {
    const body = String(row.body ?? "null");
    if (accepted.type === "csv") throw errors.mediaType(["text/csv"]);
    const headers: Record<string, string> = { "Content-Range": singleRange, ...baseHeaders(state, call, contentTypes.json) };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, withResponseGucs(row, 200, headers), headers, body, call.head);
  }
  respondRows(state, call, result, accepted, offset, 200, prefApplied);
}

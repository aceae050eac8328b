import { ApiError, errors } from "./errors.ts";
import { applied, baseHeaders, bodyFormat, type Call, type LoadedState, settingsFor, withResponseGucs } from "./call.ts";
import type { StatementResult } from "./execute.ts";
import { type Accepted, negotiate, parseQuery, type Preferences, type QueryParts, readBody } from "./request.ts";
import { type NodeParams, planRead, relationSource } from "./read.ts";
import { contentTypes, send } from "./respond.ts";
import type { Relation } from "./schema-cache.ts";
import { Params } from "./sql.ts";
import { deleteSql, insertSql, payloadFor, updateSql } from "./write.ts";

/** POST, PUT, PATCH and DELETE on a table or view, with PostgREST's statuses and headers. */

export async function jsonBody(call: Call): Promise<string> {
  const type = String(call.req.headers["content-type"] ?? "application/json").split(";")[0].trim().toLowerCase();
  const body = (await readBody(call.req)).toString("utf8");
  if (type !== "application/json" && type !== "" && type !== "application/vnd.pgrst.object+json" && type !== "application/vnd.pgrst.array+json") {
    throw new ApiError(415, "PGRST107", `None of these media types are available: ${type}`);
  }
  return body;
}

/** What a mutation returns: with return=representation, the `select` over the changed rows. */
export function writeShape(state: LoadedState, call: Call, relation: Relation, query: QueryParts) {
  const representation = call.prefs.return === "representation";
  const accepted: Accepted = representation ? negotiate(call.req.headers.accept) : { type: "json", stripNulls: false };
  const node = representation ? planRead(state.cache, relationSource(relation), query.select, subNodes(query.nodes)) : undefined;
  return { representation, accepted, node, format: bodyFormat(accepted), stripNulls: accepted.stripNulls };
}

export function mutationChecks(call: Call, accepted: Accepted, representation: boolean) {
  return (result: StatementResult) => {
    const affected = representation ? Number(result.rows[0]?.page_total ?? 0) : result.rowCount;
    if (call.prefs.handling === "strict" && call.prefs.maxAffected !== undefined && affected > call.prefs.maxAffected) throw errors.maxAffected(affected);
    if (representation && accepted.type === "object" && affected !== 1) throw errors.singular(affected);
  };
}

export function needsTransaction(call: Call, accepted: Accepted, representation: boolean): boolean {
  return (call.prefs.handling === "strict" && call.prefs.maxAffected !== undefined) || (representation && accepted.type === "object");
}

export async function runWrite(state: LoadedState, call: Call, sql: string, values: unknown[], accepted: Accepted, representation: boolean) {
  return await state.executor.run(settingsFor(state, call, false), sql, values, {
    transactional: needsTransaction(call, accepted, representation),
    check: mutationChecks(call, accepted, representation),
  });
}

export type RangeStyle = "insert" | "update" | "delete";

/** PostgREST's Content-Range for mutations: a range only for updates, the total with a count preference. */
export function mutationRange(style: RangeStyle, affected: number, counted: boolean): string {
  const range = style === "update" && affected > 0 ? `0-${affected - 1}` : "*";
  return `${range}/${counted ? affected : "*"}`;
}

export function writeResponse(state: LoadedState, call: Call, result: StatementResult, shape: ReturnType<typeof writeShape>, status: { minimal: number; full: number }, extra: Record<string, string>, appliedKeys: (keyof Preferences)[], style: RangeStyle) {
  const prefApplied = applied(call.prefs, appliedKeys);
  if (!shape.representation) {
    const headers: Record<string, string> = { ...baseHeaders(state, call, undefined), "Content-Range": mutationRange(style, result.rowCount, !!call.prefs.count), ...extra };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, status.minimal, headers, undefined, true);
  }
  const row = result.rows[0] ?? {};
  const pageTotal = Number(row.page_total ?? 0);
  const headers: Record<string, string> = { ...baseHeaders(state, call, contentTypes[shape.accepted.type === "openapi" ? "json" : shape.accepted.type]), "Content-Range": mutationRange(style, pageTotal, !!call.prefs.count), ...extra };
  if (prefApplied) headers["Preference-Applied"] = prefApplied;
  send(call.res, withResponseGucs(row, status.full, headers), headers, String(row.body ?? "[]"), call.head);
}

export function writeQuery(call: Call) {
  const query = parseQuery(call.url.searchParams);
  return query;
}

export async function handleInsert(state: LoadedState, call: Call, relation: Relation, put?: { conditions: true }): Promise<void> {
  const query = writeQuery(call);
  const text = await jsonBody(call);
  const payload = payloadFor(relation, text, query.columns, !put);
  const shape = writeShape(state, call, relation, query);
  const params = new Params();
  const resolution = put ? "merge-duplicates" : call.prefs.resolution;
  if (query.onConflict) for (const c of query.onConflict) if (!relation.columns.has(c)) throw errors.columnNotFound(relation.name, c);
  const locate = call.prefs.return === "headers-only" && relation.primaryKey.length > 0;
  const sql = insertSql(relation, payload, { missingDefault: call.prefs.missing === "default", resolution, onConflict: query.onConflict, returnPrimaryKey: locate }, { ...shape }, params);
  const result = await runWrite(state, call, sql, params.values, shape.accepted, shape.representation);
  const extra: Record<string, string> = {};
  const first = result.rows[0];
  if (locate && first) {
    extra.Location = `/${relation.name}?${relation.primaryKey.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[`pgrst_pk_${c}`]))}`).join("&")}`;
  }
  let created = put ? { minimal: 204, full: 200 } : { minimal: 201, full: 201 };
  if (!put && resolution === "merge-duplicates") {
    const inserted = shape.representation ? Number(result.rows[0]?.inserted ?? 0) : result.rows.filter((r) => r.inserted === true).length;
    if (inserted === 0) created = { minimal: 200, full: 200 };
  }
  const resolutionApplies = !put && (relation.primaryKey.length > 0 || !!query.onConflict);
  const keys: (keyof Preferences)[] = ["return", "count", "missing", "handling", ...(resolutionApplies ? (["resolution"] as const) : [])];
  writeResponse(state, call, result, shape, created, extra, keys, "insert");
}

export async function handlePut(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const query = writeQuery(call);
  const root = query.nodes.get("");
  if (root && (root.limit !== undefined || root.offset !== undefined)) throw new ApiError(400, "PGRST114", "limit/offset querystring parameters are not allowed for PUT");
  const pk = relation.primaryKey;
  const eqs = (root?.conditions ?? []).filter((c) => c.kind === "filter" && c.operation.op === "eq" && !c.operation.negated && !c.field.json.length);
  if (!pk.length || eqs.length !== (root?.conditions.length ?? 0) || pk.some((c) => !eqs.some((f) => f.kind === "filter" && f.field.name === c)) || eqs.length !== pk.length) {
    throw new ApiError(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators");
  }
  return await handleInsert(state, call, relation, { conditions: true });
}

/** Only the embed parts of the query apply to a mutation's representation; root filters are the mutation's. */
export function subNodes(nodes: Map<string, NodeParams>) {
  const copy = new Map(nodes);
  copy.delete("");
  return copy;
}

export async function handleUpdate(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const query = writeQuery(call);
  const text = await jsonBody(call);
  const payload = payloadFor(relation, text, query.columns, false);
  const shape = writeShape(state, call, relation, query);
  const filterNode = planRead(state.cache, relationSource(relation), [{ kind: "star" }], new Map([["", query.nodes.get("") ?? { conditions: [], order: [] }]]));
  const root = query.nodes.get("");
  if (!payload.columns.length) {
    const headers = { ...baseHeaders(state, call, shape.representation ? contentTypes.json : undefined), "Content-Range": "*/*" };
    return send(call.res, shape.representation ? 200 : 204, headers, shape.representation ? "[]" : undefined, call.head);
  }
  const params = new Params();
  const sql = updateSql(relation, payload, { node: filterNode, limit: root?.limit }, shape, params);
  const result = await runWrite(state, call, sql, params.values, shape.accepted, shape.representation);
  writeResponse(state, call, result, shape, { minimal: 204, full: 200 }, {}, ["return", "count", "missing", "handling", "maxAffected"], "update");
}

export async function handleDelete(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const query = writeQuery(call);
  const shape = writeShape(state, call, relation, query);
  const filterNode = planRead(state.cache, relationSource(relation), [{ kind: "star" }], new Map([["", query.nodes.get("") ?? { conditions: [], order: [] }]]));
  const params = new Params();
  const sql = deleteSql(relation, { node: filterNode, limit: query.nodes.get("")?.limit }, shape, params);
  const result = await runWrite(state, call, sql, params.values, shape.accepted, shape.representation);
  writeResponse(state, call, result, shape, { minimal: 204, full: 200 }, {}, ["return", "count", "handling", "maxAffected"], "delete");
}

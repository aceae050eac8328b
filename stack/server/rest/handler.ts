import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../gateway.ts";
import { authenticate, type Caller } from "./auth.ts";
import { ApiError, errors, fromPgError } from "./errors.ts";
import { type Executor, preparedName, type RequestSettings, type StatementResult } from "./execute.ts";
import { type Accepted, negotiate, parsePreferences, parseQuery, parseRangeHeader, type Preferences, readBody } from "./request.ts";
import { buildReadSql, planRead, relationSource, responseGucsSql, type BodyFormat, type ReadNode, type ReadSource } from "./read.ts";
import { contentRange, contentTypes, send, sendError } from "./respond.ts";
import { callSql, chooseRoutine, routineRelation, type RpcArguments } from "./rpc.ts";
import { closestName, type Relation, relationKey, type SchemaCache } from "./schema-cache.ts";
import { Params, qualified, quoteIdent } from "./sql.ts";
import { deleteSql, insertSql, payloadFor, updateSql } from "./write.ts";

export interface RestOptions {
  schemas: string[];
  extraSearchPath: string[];
  maxRows?: number;
}

export interface RestState {
  cache: SchemaCache | undefined;
  executor: Executor;
  options: RestOptions;
  plans: Map<string, CachedRead>;
}

interface CachedRead {
  sql: string;
  name: string;
  values: unknown[];
  offset: number;
  format: Accepted;
  countPref?: Preferences["count"];
  hits: number;
}

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  caller: Caller;
  schema: string;
  prefs: Preferences;
  head: boolean;
}

const maxCachedPlans = 2000;

export async function handleRest(state: RestState, req: IncomingMessage, res: ServerResponse, gw: GatewayContext): Promise<void> {
  const method = req.method ?? "GET";
  const head = method === "HEAD";
  try {
    if (!state.cache) throw new ApiError(503, "PGRST002", "Could not query the database for the schema cache. Retrying.");
    return await handleWithCache({ ...state, cache: state.cache }, req, res, gw, method, head);
  } catch (error) {
    return handleFailure(error, res, gw, head);
  }
}

async function handleWithCache(state: LoadedState, req: IncomingMessage, res: ServerResponse, gw: GatewayContext, method: string, head: boolean): Promise<void> {
  try {
    const caller = authenticate(gw.bearer, false);
    const url = gw.url;
    const rawPath = url.pathname.replace(/^\/rest\/v1/, "");
    const segments = rawPath.split("/").filter(Boolean).map(decodeSegment);
    const schema = profileSchema(state, req, method);
    const prefs = parsePreferences(req.headers.prefer);
    if (prefs.handling === "strict" && prefs.invalid.length) throw errors.invalidPreferences(prefs.invalid);
    const call: Call = { req, res, url, method, caller, schema, prefs, head };
    if (segments.length === 0) return openApiRoot(call, state);
    if (segments[0] === "rpc" && segments.length === 2) return await handleRpc(state, call, segments[1]);
    if (segments.length !== 1) throw errors.invalidPath();
    const relation = state.cache.relations.get(relationKey(schema, segments[0]));
    if (!relation) {
      const names = [...state.cache.relations.values()].filter((r) => r.schema === schema).map((r) => r.name);
      throw errors.tableNotFound(schema, segments[0], closestName(segments[0], names));
    }
    switch (method) {
      case "GET":
      case "HEAD":
        return await handleRead(state, call, relation);
      case "POST":
        return await handleInsert(state, call, relation);
      case "PUT":
        return await handlePut(state, call, relation);
      case "PATCH":
        return await handleUpdate(state, call, relation);
      case "DELETE":
        return await handleDelete(state, call, relation);
      default:
        throw errors.unsupportedMethod(method);
    }
  } catch (error) {
    return handleFailure(error, res, gw, head);
  }
}

type LoadedState = RestState & { cache: SchemaCache };

function handleFailure(error: unknown, res: ServerResponse, gw: GatewayContext, head: boolean): void {
  {
    if (error instanceof ApiError) return sendError(res, error, head);
    const pgError = error as { code?: string; message?: string; severity?: string };
    if (pgError && typeof pgError.code === "string" && pgError.severity) {
      let authenticated = false;
      try {
        authenticated = authenticate(gw.bearer, false).authenticated;
      } catch {
        authenticated = false;
      }
      return sendError(res, fromPgError(error as { code: string; message: string }, authenticated), head);
    }
    if (pgError?.code === "ECONNREFUSED" || pgError?.code === "57P01") {
      return sendError(res, new ApiError(503, "PGRST000", "Database connection error. Retrying the connection."), head);
    }
    console.error("[rest] unexpected:", error);
    return sendError(res, new ApiError(500, "PGRSTX00", error instanceof Error ? error.message : "Internal error"), head);
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function profileSchema(state: LoadedState, req: IncomingMessage, method: string): string {
  const header = method === "GET" || method === "HEAD" ? req.headers["accept-profile"] : req.headers["content-profile"];
  const schema = typeof header === "string" && header ? header : state.options.schemas[0];
  if (!state.options.schemas.includes(schema)) throw errors.unacceptableSchema(schema, state.options.schemas);
  return schema;
}

function settingsFor(state: LoadedState, call: Call, readOnly: boolean): RequestSettings {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(call.req.headers)) if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(", ") : value;
  const cookies: Record<string, string> = {};
  for (const part of (headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  const searchPath = [...new Set([call.schema, ...state.options.extraSearchPath])].map(quoteIdent).join(", ");
  const claims = call.caller.claims;
  return {
    role: call.caller.role,
    claims: JSON.stringify(claims),
    sub: typeof claims.sub === "string" ? claims.sub : "",
    claimRole: call.caller.role,
    method: call.method,
    path: call.url.pathname.replace(/^\/rest\/v1/, "") || "/",
    headers: JSON.stringify(headers),
    cookies: JSON.stringify(cookies),
    searchPath,
    readOnly,
  };
}

function baseHeaders(state: LoadedState, call: Call, contentType: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (contentType) headers["Content-Type"] = contentType;
  if (state.options.schemas.length > 1) headers["Content-Profile"] = call.schema;
  return headers;
}

/** Preference-Applied, in PostgREST's fixed order, for the preferences this request honoured. */
function applied(prefs: Preferences, keys: (keyof Preferences)[]): string | undefined {
  const order: (keyof Preferences)[] = ["resolution", "missing", "return", "count", "handling", "maxAffected"];
  const out: string[] = [];
  for (const key of order) {
    const value = prefs[key];
    if (value === undefined || !keys.includes(key)) continue;
    if (key === "maxAffected") {
      if (prefs.handling === "strict") out.push(`max-affected=${value}`);
    } else out.push(`${key}=${value}`);
  }
  return out.length ? out.join(", ") : undefined;
}

/** Content-Location: the resource with its query string in canonical (sorted) form. */
function contentLocation(name: string, search: URLSearchParams): string {
  const pairs = [...search].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return `/${name}${qs ? `?${qs}` : ""}`;
}

function bodyFormat(accepted: Accepted): BodyFormat {
  return accepted.type === "object" ? "object" : accepted.type === "csv" ? "csv" : "json";
}

/** Applies `response.status` / `response.headers` set by the SQL (PGRST111/112 when malformed). */
function withResponseGucs(row: Record<string, unknown>, status: number, headers: Record<string, string>): number {
  if (typeof row.response_headers === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.response_headers);
    } catch {
      parsed = undefined;
    }
    const valid = Array.isArray(parsed) && parsed.every((h) => h && typeof h === "object" && !Array.isArray(h) && Object.keys(h).length === 1 && typeof Object.values(h)[0] === "string");
    if (!valid) throw new ApiError(500, "PGRST111", "response.headers guc must be a JSON array composed of objects with a single key and a string value");
    for (const entry of parsed as Record<string, string>[]) {
      const [name, value] = Object.entries(entry)[0];
      for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
      headers[name] = value;
    }
  }
  if (typeof row.response_status === "string") {
    const code = Number(row.response_status);
    if (!/^\d+$/.test(row.response_status) || code < 100 || code > 599) throw new ApiError(500, "PGRST112", "response.status guc must be a valid status code");
    return code;
  }
  return status;
}

// ---------- read ----------

function limitsFor(state: LoadedState, call: Call, root: { limit?: number; offset?: number } | undefined): { limit?: number; offset: number } {
  let offset = root?.offset ?? 0;
  let limit = root?.limit;
  const range = call.method === "GET" || call.method === "HEAD" ? parseRangeHeader(call.req.headers.range as string | undefined) : undefined;
  if (range) {
    const upperFromQuery = limit !== undefined ? offset + limit - 1 : Infinity;
    const lower = Math.max(offset, range.from);
    const upper = Math.min(upperFromQuery, range.to ?? Infinity);
    offset = lower;
    limit = upper === Infinity ? undefined : Math.max(0, upper - lower + 1);
  }
  if (state.options.maxRows !== undefined) limit = limit === undefined ? state.options.maxRows : Math.min(limit, state.options.maxRows);
  return { limit, offset };
}

async function handleRead(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const key = `${call.caller.role}\u0000${call.schema}\u0000${call.req.headers.accept ?? ""}\u0000${call.req.headers.prefer ?? ""}\u0000${call.req.headers.range ?? ""}\u0000${call.url.pathname}${call.url.search}`;
  let plan = state.plans.get(key);
  if (!plan) {
    const accepted = negotiate(call.req.headers.accept);
    const query = parseQuery(call.url.searchParams);
    const root = query.nodes.get("");
    const { limit, offset } = limitsFor(state, call, root);
    const node = planRead(state.cache, relationSource(relation), query.select, query.nodes);
    const params = new Params();
    const sql = buildReadSql(node, { fromSql: qualified(relation.schema, relation.name), withConditions: true, limit, offset, count: !!call.prefs.count, format: bodyFormat(accepted), stripNulls: accepted.stripNulls }, params);
    plan = { sql, name: preparedName(sql), values: params.values, offset, format: accepted, countPref: call.prefs.count, hits: 0 };
    if (state.plans.size >= maxCachedPlans) state.plans.delete(state.plans.keys().next().value as string);
    state.plans.set(key, plan);
  }
  plan.hits++;
  const result = await state.executor.run(settingsFor(state, call, true), plan.sql, plan.values, { transactional: false, prepare: plan.hits > 1, name: plan.name });
  respondRows(state, call, result, plan.format, plan.offset, 200, applied(call.prefs, ["count", "handling"]), { "Content-Location": contentLocation(relation.name, call.url.searchParams) });
}

function respondRows(state: LoadedState, call: Call, result: StatementResult, accepted: Accepted, offset: number, okStatus: number, preferenceApplied?: string, extra: Record<string, string> = {}): void {
  const row = result.rows[0] ?? {};
  const pageTotal = Number(row.page_total ?? 0);
  const total = row.total === null || row.total === undefined ? null : Number(row.total);
  if (accepted.type === "object" && pageTotal !== 1) throw errors.singular(pageTotal);
  if (total !== null && offset > 0 && offset >= total && pageTotal === 0) throw errors.invalidRange(`An offset of ${offset} was requested, but there are only ${total} rows.`);
  const headers = baseHeaders(state, call, contentTypes[accepted.type === "openapi" ? "json" : accepted.type]);
  headers["Content-Range"] = contentRange(offset, pageTotal, total);
  Object.assign(headers, extra);
  if (preferenceApplied) headers["Preference-Applied"] = preferenceApplied;
  let status = okStatus;
  if (total !== null && okStatus === 200 && (offset > 0 || offset + pageTotal < total)) status = 206;
  status = withResponseGucs(row, status, headers);
  send(call.res, status, headers, String(row.body ?? (accepted.type === "object" ? "null" : "[]")), call.head);
}

// ---------- writes ----------

async function jsonBody(call: Call): Promise<string> {
  const type = String(call.req.headers["content-type"] ?? "application/json").split(";")[0].trim().toLowerCase();
  const body = (await readBody(call.req)).toString("utf8");
  if (type !== "application/json" && type !== "" && type !== "application/vnd.pgrst.object+json" && type !== "application/vnd.pgrst.array+json") {
    throw new ApiError(415, "PGRST107", `None of these media types are available: ${type}`);
  }
  return body;
}

function writeShape(state: LoadedState, call: Call, relation: Relation, selectNode: () => ReadNode) {
  const representation = call.prefs.return === "representation";
  const accepted = representation ? negotiate(call.req.headers.accept) : { type: "json" as const, stripNulls: false };
  return { representation, accepted, node: representation ? selectNode() : (undefined as unknown as ReadNode), format: bodyFormat(accepted), stripNulls: accepted.stripNulls };
}

function mutationChecks(call: Call, accepted: Accepted, representation: boolean) {
  return (result: StatementResult) => {
    const affected = representation ? Number(result.rows[0]?.page_total ?? 0) : result.rowCount;
    if (call.prefs.handling === "strict" && call.prefs.maxAffected !== undefined && affected > call.prefs.maxAffected) throw errors.maxAffected(affected);
    if (representation && accepted.type === "object" && affected !== 1) throw errors.singular(affected);
  };
}

function needsTransaction(call: Call, accepted: Accepted, representation: boolean): boolean {
  return (call.prefs.handling === "strict" && call.prefs.maxAffected !== undefined) || (representation && accepted.type === "object");
}

async function runWrite(state: LoadedState, call: Call, sql: string, values: unknown[], accepted: Accepted, representation: boolean) {
  return await state.executor.run(settingsFor(state, call, false), sql, values, {
    transactional: needsTransaction(call, accepted, representation),
    prepare: false,
    check: mutationChecks(call, accepted, representation),
  });
}

type RangeStyle = "insert" | "update" | "delete";

function mutationRange(style: RangeStyle, affected: number): string {
  return style === "update" && affected > 0 ? `0-${affected - 1}/*` : "*/*";
}

function writeResponse(state: LoadedState, call: Call, result: StatementResult, shape: ReturnType<typeof writeShape>, status: { minimal: number; full: number }, extra: Record<string, string>, appliedKeys: (keyof Preferences)[], style: RangeStyle) {
  const prefApplied = applied(call.prefs, appliedKeys);
  if (!shape.representation) {
    const headers: Record<string, string> = { ...baseHeaders(state, call, undefined), "Content-Range": mutationRange(style, result.rowCount), ...extra };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, status.minimal, headers, undefined, true);
  }
  const row = result.rows[0] ?? {};
  const pageTotal = Number(row.page_total ?? 0);
  const headers: Record<string, string> = { ...baseHeaders(state, call, contentTypes[shape.accepted.type === "openapi" ? "json" : shape.accepted.type]), "Content-Range": mutationRange(style, pageTotal), ...extra };
  if (prefApplied) headers["Preference-Applied"] = prefApplied;
  send(call.res, withResponseGucs(row, status.full, headers), headers, String(row.body ?? "[]"), call.head);
}

function writeQuery(call: Call) {
  const query = parseQuery(call.url.searchParams);
  return query;
}

async function handleInsert(state: LoadedState, call: Call, relation: Relation, put?: { conditions: true }): Promise<void> {
  const query = writeQuery(call);
  const text = await jsonBody(call);
  const payload = payloadFor(relation, text, query.columns, !put);
  const shape = writeShape(state, call, relation, () => planRead(state.cache, relationSource(relation), query.select, subNodes(query.nodes)));
  const params = new Params();
  const resolution = put ? "merge-duplicates" : call.prefs.resolution;
  if (query.onConflict) for (const c of query.onConflict) if (!relation.columns.has(c)) throw errors.columnNotFound(relation.name, c);
  const sql = insertSql(relation, payload, { missingDefault: call.prefs.missing === "default", resolution, onConflict: query.onConflict }, { ...shape }, params);
  const result = await runWrite(state, call, sql, params.values, shape.accepted, shape.representation);
  const extra: Record<string, string> = {};
  if (call.prefs.return === "headers-only" && relation.primaryKey.length && !payload.isArray) {
    const row = JSON.parse(payload.json)[0] as Record<string, unknown>;
    if (relation.primaryKey.every((c) => row[c] !== undefined)) {
      extra.Location = `/${relation.name}?${relation.primaryKey.map((c) => `${c}=eq.${encodeURIComponent(String(row[c]))}`).join("&")}`;
    }
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

async function handlePut(state: LoadedState, call: Call, relation: Relation): Promise<void> {
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
function subNodes(nodes: Map<string, import("./read.ts").NodeParams>) {
  const copy = new Map(nodes);
  copy.delete("");
  return copy;
}

async function handleUpdate(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const query = writeQuery(call);
  const text = await jsonBody(call);
  const payload = payloadFor(relation, text, query.columns, false);
  const shape = writeShape(state, call, relation, () => planRead(state.cache, relationSource(relation), query.select, subNodes(query.nodes)));
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

async function handleDelete(state: LoadedState, call: Call, relation: Relation): Promise<void> {
  const query = writeQuery(call);
  const shape = writeShape(state, call, relation, () => planRead(state.cache, relationSource(relation), query.select, subNodes(query.nodes)));
  const filterNode = planRead(state.cache, relationSource(relation), [{ kind: "star" }], new Map([["", query.nodes.get("") ?? { conditions: [], order: [] }]]));
  const params = new Params();
  const sql = deleteSql(relation, { node: filterNode, limit: query.nodes.get("")?.limit }, shape, params);
  const result = await runWrite(state, call, sql, params.values, shape.accepted, shape.representation);
  writeResponse(state, call, result, shape, { minimal: 204, full: 200 }, {}, ["return", "count", "handling", "maxAffected"], "delete");
}

// ---------- rpc ----------

async function handleRpc(state: LoadedState, call: Call, name: string): Promise<void> {
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
  if (scalar && !routine.returnsSet) {
    sql = `with "pgrst_source" as (select ${callExpr} as "pgrst_scalar"${prefix ? ` from ${prefix.replace(/, lateral $/, "")}` : ""}) select null::bigint as total, 1 as page_total, to_json("pgrst_scalar")::text as body, ${responseGucsSql} from "pgrst_source"`;
  } else {
    const relation = routineRelation(state.cache, routine);
    const source: ReadSource = { name: routine.name, columns: scalar ? [routine.name] : routine.returnColumns, relation };
    const node = planRead(state.cache, source, query.select, query.nodes);
    const limits = limitsFor(state, call, query.nodes.get(""));
    offset = limits.offset;
    const format: BodyFormat = !routine.returnsSet ? "object" : bodyFormat(accepted);
    sql = buildReadSql(node, { fromSql: callExpr, fromPrefix: prefix ? `${prefix.replace(/lateral $/, "")}lateral ` : "", withConditions: true, limit: routine.returnsSet ? limits.limit : undefined, offset: limits.offset, count: !!call.prefs.count, format, stripNulls: accepted.stripNulls }, params);
    if (scalar) sql = sql.replace(`coalesce(json_agg("_postgrest_t"), '[]')`, `coalesce(json_agg("_postgrest_t".${quoteIdent(routine.name)}), '[]')`);
  }
  const result = await state.executor.run(settings, sql, params.values, { transactional: isRead, prepare: false });
  const row = result.rows[0] ?? {};
  const prefApplied = applied(call.prefs, ["count", "handling", "maxAffected"]);
  if (routine.returnKind === "void") {
    const headers: Record<string, string> = { "Content-Range": "0-0/*" };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, withResponseGucs(row, 204, headers), headers, undefined, true);
  }
  if (!routine.returnsSet) {
    const body = String(row.body ?? "null");
    if (accepted.type === "csv") throw errors.mediaType(["text/csv"]);
    const headers: Record<string, string> = { "Content-Range": "0-0/*", ...baseHeaders(state, call, contentTypes.json) };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(call.res, withResponseGucs(row, 200, headers), headers, body, call.head);
  }
  respondRows(state, call, result, accepted, offset, 200, prefApplied);
}

// ---------- root ----------

function openApiRoot(call: Call, state: LoadedState): void {
  if (call.method !== "GET" && call.method !== "HEAD") throw errors.unsupportedMethod(call.method);
  const paths: Record<string, unknown> = { "/": {} };
  for (const relation of state.cache.relations.values()) if (relation.schema === call.schema) paths[`/${relation.name}`] = {};
  for (const routines of state.cache.routines.values()) for (const r of routines) if (r.schema === call.schema) paths[`/rpc/${r.name}`] = {};
  const body = JSON.stringify({ swagger: "2.0", info: { title: "standard public schema", version: "12.2.0" }, paths });
  send(call.res, 200, { "Content-Type": "application/openapi+json; charset=utf-8" }, body, call.head);
}

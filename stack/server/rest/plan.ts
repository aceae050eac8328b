import { ApiError, errors } from "./errors.ts";
import { type ReadNode, type ReadSource, planRead, relationSource } from "./read-plan.ts";
import type { ApiRequest, NodeParams, Preferences } from "./request.ts";
import { chooseRoutine, type RoutineChoice, routineRelation, type RpcArguments } from "./rpc.ts";
import { closestName, type Relation, relationKey, type Routine, type SchemaCache } from "./schema-cache.ts";
import type { Payload } from "./write.ts";

/**
 * Step 2 of a request: the parsed request resolved against the schema cache into what to do —
 * which relation or function, the read tree with its embeds, the media type to answer in, the
 * body's rows — with every error that needs no database found here.
 */

export type Plan = RootPlan | ReadPlan | MutatePlan | CallPlan;

export interface RootPlan {
  kind: "root";
  body: string;
}

export interface ReadPlan {
  kind: "read";
  relation: Relation;
  node: ReadNode;
  accepted: Accepted;
  /** Content-Location: the resource with its query string in canonical (sorted) form. */
  location: string;
}

export type RangeStyle = "insert" | "update" | "delete";

export interface MutatePlan {
  kind: "mutate";
  style: RangeStyle;
  relation: Relation;
  accepted: Accepted;
  /** return=representation: the `select` over the changed rows. */
  node?: ReadNode;
  payload?: Payload;
  /** Update/delete: the root filters (and order, for a limited change). */
  filter?: { node: ReadNode; limit?: number };
  insert?: { put: boolean; resolution?: Preferences["resolution"]; onConflict?: string[]; locate: boolean; missingDefault: boolean };
  /** PATCH with an empty body changes nothing: answered without a statement. */
  nothing: boolean;
  appliedKeys: (keyof Preferences)[];
  status: { minimal: number; full: number };
}

export interface CallPlan {
  kind: "call";
  routine: Routine;
  choice: RoutineChoice;
  args: RpcArguments;
  accepted: Accepted;
  /** The read over the function's rows; none for a function returning one scalar (or void). */
  node?: ReadNode;
  source?: ReadSource;
}

export function planRequest(cache: SchemaCache, request: ApiRequest): Plan {
  const { target, method } = request;
  if (target.kind === "root") return planRoot(cache, request);
  if (target.kind === "rpc") return planCall(cache, request, target.name);
  const relation = cache.relations.get(relationKey(request.schema, target.name));
  if (!relation) {
    const names = [...cache.relations.values()].filter((r) => r.schema === request.schema).map((r) => r.name);
    throw errors.tableNotFound(request.schema, target.name, closestName(target.name, names));
  }
  switch (method) {
    case "GET":
    case "HEAD":
      return planReadRequest(cache, request, relation);
    case "POST":
      return planInsert(cache, request, relation, false);
    case "PUT":
      return planPut(cache, request, relation);
    case "PATCH":
      return planUpdate(cache, request, relation);
    case "DELETE":
      return planDelete(cache, request, relation);
    default:
      throw errors.unsupportedMethod(method);
  }
}

function planRoot(cache: SchemaCache, request: ApiRequest): RootPlan {
  if (request.method !== "GET" && request.method !== "HEAD") throw errors.unsupportedMethod(request.method);
  const paths: Record<string, unknown> = { "/": {} };
  for (const relation of cache.relations.values()) if (relation.schema === request.schema) paths[`/${relation.name}`] = {};
  for (const routines of cache.routines.values()) for (const r of routines) if (r.schema === request.schema) paths[`/rpc/${r.name}`] = {};
  return { kind: "root", body: JSON.stringify({ swagger: "2.0", info: { title: "standard public schema", version: "12.2.0" }, paths }) };
}

function planReadRequest(cache: SchemaCache, request: ApiRequest, relation: Relation): ReadPlan {
  const accepted = negotiate(request.headers.accept);
  const node = planRead(cache, relationSource(relation), request.query.select, request.query.nodes);
  return { kind: "read", relation, node, accepted, location: contentLocation(relation.name, request.url.searchParams) };
}

function contentLocation(name: string, search: URLSearchParams): string {
  const pairs = [...search].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return `/${name}${qs ? `?${qs}` : ""}`;
}

/** Only the embed parts of the query apply to a mutation's representation; root filters are the mutation's. */
function representation(cache: SchemaCache, request: ApiRequest, relation: Relation): { accepted: Accepted; node?: ReadNode } {
  if (request.prefs.return !== "representation") return { accepted: { type: "json", stripNulls: false } };
  const accepted = negotiate(request.headers.accept);
  const nodes = new Map(request.query.nodes);
  nodes.delete("");
  return { accepted, node: planRead(cache, relationSource(relation), request.query.select, nodes) };
}

function rootFilter(cache: SchemaCache, request: ApiRequest, relation: Relation): { node: ReadNode; limit?: number } {
  const root: NodeParams = request.query.nodes.get("") ?? { conditions: [], order: [] };
  return { node: planRead(cache, relationSource(relation), [{ kind: "star" }], new Map([["", root]])), limit: root.limit };
}

function planInsert(cache: SchemaCache, request: ApiRequest, relation: Relation, put: boolean): MutatePlan {
  const { query, prefs } = request;
  const payload = payloadFor(relation, request.body ?? "", query.columns, !put);
  const shape = representation(cache, request, relation);
  const resolution = put ? "merge-duplicates" : prefs.resolution;
  if (query.onConflict) for (const c of query.onConflict) if (!relation.columns.has(c)) throw errors.columnNotFound(relation.name, c);
  if (resolution && !query.onConflict && !relation.primaryKey.length)
    throw errors.invalidBody("There is no primary key on this table to resolve conflicts; use on_conflict");
  const locate = prefs.return === "headers-only" && relation.primaryKey.length > 0;
  const resolutionApplies = !put && (relation.primaryKey.length > 0 || !!query.onConflict);
  return {
    kind: "mutate",
    style: "insert",
    relation,
    ...shape,
    payload,
    insert: { put, resolution, onConflict: query.onConflict, locate, missingDefault: prefs.missing === "default" },
    nothing: false,
    appliedKeys: ["return", "count", "missing", "handling", ...(resolutionApplies ? (["resolution"] as const) : [])],
    status: put ? { minimal: 204, full: 200 } : { minimal: 201, full: 201 },
  };
}

function planPut(cache: SchemaCache, request: ApiRequest, relation: Relation): MutatePlan {
  const root = request.query.nodes.get("");
  if (root && (root.limit !== undefined || root.offset !== undefined))
    throw new ApiError(400, "PGRST114", "limit/offset querystring parameters are not allowed for PUT");
  const pk = relation.primaryKey;
  const eqs = (root?.conditions ?? []).filter(
    (c) => c.kind === "filter" && c.operation.op === "eq" && !c.operation.negated && !c.field.json.length,
  );
  if (
    !pk.length ||
    eqs.length !== (root?.conditions.length ?? 0) ||
    pk.some((c) => !eqs.some((f) => f.kind === "filter" && f.field.name === c)) ||
    eqs.length !== pk.length
  ) {
    throw new ApiError(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators");
  }
  return planInsert(cache, request, relation, true);
}

function planUpdate(cache: SchemaCache, request: ApiRequest, relation: Relation): MutatePlan {
  const payload = payloadFor(relation, request.body ?? "", request.query.columns, false);
  const shape = representation(cache, request, relation);
  const filter = rootFilter(cache, request, relation);
  return {
    kind: "mutate",
    style: "update",
    relation,
    ...shape,
    payload,
    filter,
    nothing: !payload.columns.length,
    appliedKeys: ["return", "count", "missing", "handling", "maxAffected"],
    status: { minimal: 204, full: 200 },
  };
}

function planDelete(cache: SchemaCache, request: ApiRequest, relation: Relation): MutatePlan {
  const shape = representation(cache, request, relation);
  const filter = rootFilter(cache, request, relation);
  return {
    kind: "mutate",
    style: "delete",
    relation,
    ...shape,
    filter,
    nothing: false,
    appliedKeys: ["return", "count", "handling", "maxAffected"],
    status: { minimal: 204, full: 200 },
  };
}

function planCall(cache: SchemaCache, request: ApiRequest, name: string): CallPlan {
  const isRead = request.method === "GET" || request.method === "HEAD";
  const overloads = cache.routines.get(relationKey(request.schema, name)) ?? [];
  const singleObject = request.prefs.params === "single-object";
  let args: RpcArguments;
  if (isRead) args = { kind: "query", values: request.query.raw };
  else {
    const raw = request.body ?? "";
    let body: unknown = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        throw errors.invalidBody("Empty or invalid json");
      }
    }
    if (!singleObject && (!body || typeof body !== "object" || Array.isArray(body))) {
      const unnamed = overloads.find(
        (r) => r.params.length === 1 && r.params[0].name === "" && (r.params[0].type === "json" || r.params[0].type === "jsonb"),
      );
      if (!unnamed) throw errors.invalidBody("Empty or invalid json");
    }
    const keys = body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
    args = { kind: "json", body: (body ?? {}) as Record<string, unknown>, keys, raw: raw.trim() ? raw : "{}" };
  }
  const choice = chooseRoutine(cache, request.schema, name, args, singleObject, !isRead);
  const routine = choice.routine;
  const accepted = negotiate(request.headers.accept);
  const scalar = routine.returnKind !== "composite";
  if (scalar && !routine.returnsSet) {
    if (accepted.type === "csv" && routine.returnKind !== "void") throw errors.mediaType(["text/csv"]);
    return { kind: "call", routine, choice, args, accepted };
  }
  const source: ReadSource = {
    name: routine.name,
    columns: scalar ? [routine.name] : routine.returnColumns,
    relation: routineRelation(cache, routine),
  };
  const node = planRead(cache, source, request.query.select, request.query.nodes);
  if (!routine.returnsSet && accepted.type === "csv") throw errors.mediaType(["text/csv"]);
  return { kind: "call", routine, choice, args, accepted, node, source };
}

/** Validates the JSON body and the columns it writes (the `columns` parameter, else the body's keys). */
function payloadFor(relation: Relation, text: string, columnsParam: string[] | undefined, allowArray: boolean): Payload {
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (value === undefined || value === null || typeof value !== "object") throw errors.invalidBody("Empty or invalid json");
  const rows = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && !allowArray) throw errors.invalidBody("Empty or invalid json");
  if (rows.some((row) => !row || typeof row !== "object" || Array.isArray(row))) throw errors.invalidBody("All object keys must match");
  let columns = columnsParam;
  if (!columns) {
    const first = Object.keys((rows[0] ?? {}) as object);
    const same = rows.every((row) => {
      const keys = Object.keys(row as object);
      return keys.length === first.length && keys.every((k) => first.includes(k));
    });
    if (!same) throw errors.invalidBody("All object keys must match");
    columns = first;
  }
  for (const column of columns) if (!relation.columns.has(column)) throw errors.columnNotFound(relation.name, column);
  const given = new Set(rows.flatMap((row) => Object.keys(row as object)));
  return { json: JSON.stringify(rows), columns, isArray: Array.isArray(value), given };
}

export type MediaType = "json" | "object" | "array" | "csv" | "openapi";
export interface Accepted {
  type: MediaType;
  stripNulls: boolean;
}

/** Content negotiation on Accept (PostgREST negotiates while planning), in the client's order of preference (q values honoured). */
function negotiate(header: string | undefined, allowed: MediaType[] = ["json", "object", "array", "csv"]): Accepted {
  if (!header || !header.trim()) return { type: "json", stripNulls: false };
  const entries = header.split(",").map((part, index) => {
    const [type, ...paramsRaw] = part.split(";").map((s) => s.trim());
    const params = Object.fromEntries(paramsRaw.map((p) => p.split("=").map((s) => s.trim().toLowerCase())));
    const q = params.q !== undefined ? Number(params.q) : 1;
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index };
  });
  entries.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of entries) {
    if (entry.q <= 0) continue;
    const stripNulls = entry.params.nulls === "stripped";
    const map: Record<string, MediaType> = {
      "application/json": "json",
      "application/*": "json",
      "*/*": "json",
      "application/vnd.pgrst.object+json": "object",
      "application/vnd.pgrst.object": "object",
      "application/vnd.pgrst.array+json": "array",
      "application/vnd.pgrst.array": "array",
      "text/csv": "csv",
      "application/openapi+json": "openapi",
    };
    const type = map[entry.type];
    if (type && allowed.includes(type)) return { type, stripNulls };
  }
  throw errors.mediaType(entries.map((e) => e.type));
}

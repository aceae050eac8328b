import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Caller } from "./auth.ts";
import { ApiError, errors } from "./errors.ts";
import {
  type Filter,
  type LogicTree,
  type OrderTerm,
  parseFilter,
  parseLogicTree,
  parseNonNegativeInt,
  parseOrder,
  parseSelect,
  type SelectItem,
} from "./grammar.ts";

/**
 * Step 1 of a request: the parts of the HTTP request PostgREST acts on, parsed and validated once
 * (path, profile, Prefer, query string, Range, body). No schema knowledge beyond function argument
 * names, which decide whether a GET /rpc parameter is an argument or a filter.
 */

export interface RestOptions {
  schemas: string[];
  extraSearchPath: string[];
  maxRows?: number;
}

export type Target = { kind: "root" } | { kind: "relation"; name: string } | { kind: "rpc"; name: string };

export interface ApiRequest {
  method: string;
  head: boolean;
  /** The path below /rest/v1. */
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
  caller: Caller;
  target: Target;
  schema: string;
  prefs: Preferences;
  query: QueryParts;
  /** Rows asked for by limit/offset and the Range header, capped at max_rows (top level). */
  limit?: number;
  offset: number;
  /** The body of POST/PUT/PATCH (JSON media types only). */
  body?: string;
  /** What makes two GET/HEAD requests the same shape (their statement can be reused), if cacheable. */
  shape?: string;
}

/** Query-string parts addressed to one resource of the select tree (`posts.order=…`, `posts.limit=…`). */
export interface NodeParams {
  conditions: (Filter | LogicTree)[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

const isRead = (method: string) => method === "GET" || method === "HEAD";

/** The parts of a request that follow from its shape: parsed once per shape of GET/HEAD request. */
export type ShapeParts = Pick<ApiRequest, "query" | "limit" | "offset">;

export async function parseRequest(
  req: IncomingMessage,
  url: URL,
  caller: Caller,
  options: RestOptions,
  argumentNames: (schema: string, name: string) => Set<string>,
  parsedBefore: (shape: string) => ShapeParts | undefined,
): Promise<ApiRequest> {
  const method = req.method ?? "GET";
  const path = url.pathname.replace(/^\/rest\/v1/, "");
  const segments = path.split("/").filter(Boolean).map(decodeSegment);
  const schema = profileSchema(req.headers, method, options);
  const prefs = parsePreferences(req.headers.prefer);
  if (prefs.handling === "strict" && prefs.invalid.length) throw errors.invalidPreferences(prefs.invalid);
  let target: Target;
  if (segments.length === 0) target = { kind: "root" };
  else if (segments[0] === "rpc" && segments.length === 2) target = { kind: "rpc", name: segments[1] };
  else if (segments.length === 1) target = { kind: "relation", name: segments[0] };
  else throw errors.invalidPath();
  if (target.kind === "rpc" && !isRead(method) && method !== "POST") throw errors.invalidRpcMethod(method);
  const shape =
    isRead(method) && target.kind === "relation"
      ? `${caller.role}\u0000${schema}\u0000${req.headers.accept ?? ""}\u0000${req.headers.prefer ?? ""}\u0000${req.headers.range ?? ""}\u0000${url.pathname}${url.search}`
      : undefined;
  let parts = shape ? parsedBefore(shape) : undefined;
  if (!parts) {
    const args = target.kind === "rpc" && isRead(method) ? argumentNames(schema, target.name) : undefined;
    const query = parseQuery(url.searchParams, args ? (key) => args.has(key) : undefined);
    parts = { query, ...limitsFor(method, req.headers.range, query.nodes.get(""), options.maxRows) };
  }
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? await jsonBody(req) : undefined;
  return { method, head: method === "HEAD", path, url, headers: req.headers, caller, target, schema, prefs, ...parts, body, shape };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function profileSchema(headers: IncomingHttpHeaders, method: string, options: RestOptions): string {
  const header = isRead(method) ? headers["accept-profile"] : headers["content-profile"];
  const schema = typeof header === "string" && header ? header : options.schemas[0];
  if (!options.schemas.includes(schema)) throw errors.unacceptableSchema(schema, options.schemas);
  return schema;
}

function limitsFor(
  method: string,
  rangeHeader: string | string[] | undefined,
  root: NodeParams | undefined,
  maxRows: number | undefined,
): { limit?: number; offset: number } {
  let offset = root?.offset ?? 0;
  let limit = root?.limit;
  const range = isRead(method) ? parseRangeHeader(rangeHeader as string | undefined) : undefined;
  if (range) {
    const upperFromQuery = limit !== undefined ? offset + limit - 1 : Infinity;
    const lower = Math.max(offset, range.from);
    const upper = Math.min(upperFromQuery, range.to ?? Infinity);
    offset = lower;
    limit = upper === Infinity ? undefined : Math.max(0, upper - lower + 1);
  }
  if (maxRows !== undefined) limit = limit === undefined ? maxRows : Math.min(limit, maxRows);
  return { limit, offset };
}

async function jsonBody(req: IncomingMessage): Promise<string> {
  const type = String(req.headers["content-type"] ?? "application/json")
    .split(";")[0]
    .trim()
    .toLowerCase();
  const body = (await readBody(req)).toString("utf8");
  if (
    type !== "application/json" &&
    type !== "" &&
    type !== "application/vnd.pgrst.object+json" &&
    type !== "application/vnd.pgrst.array+json"
  ) {
    throw new ApiError(415, "PGRST107", `None of these media types are available: ${type}`);
  }
  return body;
}

export interface Preferences {
  return?: "minimal" | "headers-only" | "representation";
  count?: "exact" | "planned" | "estimated";
  resolution?: "merge-duplicates" | "ignore-duplicates";
  missing?: "default" | "null";
  handling?: "strict" | "lenient";
  maxAffected?: number;
  params?: "single-object";
  tx?: "commit" | "rollback";
  invalid: string[];
}

const preferenceValues: Record<string, string[]> = {
  return: ["minimal", "headers-only", "representation"],
  count: ["exact", "planned", "estimated"],
  resolution: ["merge-duplicates", "ignore-duplicates"],
  missing: ["default", "null"],
  handling: ["strict", "lenient"],
  params: ["single-object"],
  tx: ["commit", "rollback"],
};

function parsePreferences(header: string | string[] | undefined): Preferences {
  const prefs: Preferences = { invalid: [] };
  const raw = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const pref of raw) {
    const [key, value = ""] = pref.split("=").map((s) => s.trim());
    if (key === "max-affected" && /^\d+$/.test(value)) prefs.maxAffected = Number(value);
    else if (key === "timezone") continue;
    else if (preferenceValues[key]?.includes(value)) (prefs as unknown as Record<string, string>)[key] = value;
    else prefs.invalid.push(pref);
  }
  return prefs;
}

export interface QueryParts {
  select: SelectItem[];
  /** Filters, logic trees, order, limit and offset per embed path ("" is the root). */
  nodes: Map<string, NodeParams>;
  columns?: string[];
  onConflict?: string[];
  /** Parameters that are neither reserved nor filters (RPC GET arguments are picked from these). */
  raw: [string, string][];
}

const reserved = new Set(["select", "columns", "on_conflict"]);

function nodeFor(nodes: Map<string, NodeParams>, path: string): NodeParams {
  let node = nodes.get(path);
  if (!node) nodes.set(path, (node = { conditions: [], order: [] }));
  return node;
}

/**
 * Parses the query string. `isArgument` lets RPC GET keep its named arguments out of the filters.
 */
function parseQuery(search: URLSearchParams, isArgument: (key: string) => boolean = () => false): QueryParts {
  const parts: QueryParts = { select: [{ kind: "star" }], nodes: new Map(), raw: [] };
  for (const [key, value] of search) {
    if (key === "select") parts.select = parseSelect(value);
    else if (key === "columns") parts.columns = splitColumns(value, "columns");
    else if (key === "on_conflict") parts.onConflict = splitColumns(value, "on_conflict");
    else if (key === "apikey") continue;
    else if (isArgument(key)) parts.raw.push([key, value]);
    else addNodeParam(parts.nodes, key, value);
  }
  return parts;
}

function splitColumns(value: string, what: string): string[] {
  const columns = value.split(",").map((c) => c.trim().replace(/^"(.*)"$/, "$1"));
  if (columns.some((c) => !c)) throw errors.invalidBody(`Invalid ${what} parameter`);
  return columns;
}

const logicKeys = new Set(["or", "and", "not.or", "not.and"]);

function addNodeParam(nodes: Map<string, NodeParams>, key: string, value: string): void {
  // The last dot-separated segment names the parameter; anything before is the embed path.
  let path = "";
  let name = key;
  const logic = /^(.*?)\.?((?:not\.)?(?:or|and))$/.exec(key);
  if (logicKeys.has(key)) name = key;
  else if (logic && logic[1] && (key.endsWith(".or") || key.endsWith(".and"))) {
    path = logic[1].replace(/\.not$/, "");
    name = key.slice(path.length + 1);
  } else {
    const arrow = key.indexOf("->");
    const head = arrow >= 0 ? key.slice(0, arrow) : key;
    const dot = head.lastIndexOf(".");
    if (dot > 0) {
      path = key.slice(0, dot);
      name = key.slice(dot + 1);
    }
  }
  const node = nodeFor(nodes, path);
  if (logicKeys.has(name)) node.conditions.push(parseLogicTree(name, value) as LogicTree);
  else if (name === "order") node.order.push(...(parseOrder(value) as OrderTerm[]));
  else if (name === "limit") {
    if (/^-\d+$/.test(value)) throw errors.invalidRange("Limit should be greater than or equal to zero.");
    node.limit = parseNonNegativeInt(value, "limit");
  } else if (name === "offset") node.offset = parseNonNegativeInt(value, "offset");
  else if (!reserved.has(name)) node.conditions.push(parseFilter(name, value));
}

/** `Range: 0-9` (items), as PostgREST reads it. */
function parseRangeHeader(header: string | undefined): { from: number; to?: number } | undefined {
  if (!header) return undefined;
  const match = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(header);
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = match[2] ? Number(match[2]) : undefined;
  if (to !== undefined && to < from)
    throw errors.invalidRange("The lower boundary must be lower than or equal to the upper boundary in the Range header.");
  return { from, to };
}

export const maxBodyBytes = 10 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) {
    req.resume();
    throw errors.payloadTooLarge(maxBodyBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) {
      req.resume();
      throw errors.payloadTooLarge(maxBodyBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

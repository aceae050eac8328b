import type { IncomingMessage, ServerResponse } from "node:http";
import type { Caller } from "./auth.ts";
import { ApiError, errors } from "./errors.ts";
import type { Executor, RequestSettings, StatementResult } from "./execute.ts";
import { type Accepted, parseRangeHeader, type Preferences } from "./request.ts";
import type { BodyFormat } from "./read.ts";
import { contentRange, contentTypes, send } from "./respond.ts";
import type { SchemaCache } from "./schema-cache.ts";
import { quoteIdent } from "./sql.ts";

/** What the request handlers share: the service state, the request at hand, and response helpers. */

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

export interface CachedRead {
  /** Content-Location for this request shape. */
  location: string;
  /** For count=planned|estimated: the EXPLAIN whose row estimate may stand for the total. */
  explain?: { sql: string; values: unknown[] };
  sql: string;
  name: string;
  values: unknown[];
  offset: number;
  format: Accepted;
  countPref?: Preferences["count"];
  hits: number;
}

/** One API request on its way through: what was asked, by whom, against which schema. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  caller: Caller;
  schema: string;
  prefs: Preferences;
  head: boolean;
}

export type LoadedState = RestState & { cache: SchemaCache };

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function profileSchema(state: LoadedState, req: IncomingMessage, method: string): string {
  const header = method === "GET" || method === "HEAD" ? req.headers["accept-profile"] : req.headers["content-profile"];
  const schema = typeof header === "string" && header ? header : state.options.schemas[0];
  if (!state.options.schemas.includes(schema)) throw errors.unacceptableSchema(schema, state.options.schemas);
  return schema;
}

export function settingsFor(state: LoadedState, call: Call, readOnly: boolean): RequestSettings {
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
    roleSettings: state.cache.roleSettings.get(call.caller.role) ?? state.cache.roleSettings.get("") ?? "{}",
    readOnly,
  };
}

export function baseHeaders(state: LoadedState, call: Call, contentType: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (contentType) headers["Content-Type"] = contentType;
  if (state.options.schemas.length > 1) headers["Content-Profile"] = call.schema;
  return headers;
}

/** Preference-Applied, in PostgREST's fixed order, for the preferences this request honoured. */
export function applied(prefs: Preferences, keys: (keyof Preferences)[]): string | undefined {
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
export function contentLocation(name: string, search: URLSearchParams): string {
  const pairs = [...search].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return `/${name}${qs ? `?${qs}` : ""}`;
}

export function bodyFormat(accepted: Accepted): BodyFormat {
  return accepted.type === "object" ? "object" : accepted.type === "csv" ? "csv" : "json";
}

/** Applies `response.status` / `response.headers` set by the SQL (PGRST111/112 when malformed). */
export function withResponseGucs(row: Record<string, unknown>, status: number, headers: Record<string, string>): number {
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

export function limitsFor(state: LoadedState, call: Call, root: { limit?: number; offset?: number } | undefined): { limit?: number; offset: number } {
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

export function respondRows(state: LoadedState, call: Call, result: StatementResult, accepted: Accepted, offset: number, okStatus: number, preferenceApplied?: string, extra: Record<string, string> = {}): void {
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

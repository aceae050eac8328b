import type { ServerResponse } from "node:http";
import { ApiError, errors } from "./errors.ts";
import type { StatementResult } from "./statement.ts";
import type { Accepted, CallPlan, MutatePlan, Plan, RangeStyle } from "./plan.ts";
import type { ApiRequest, Preferences, RestOptions } from "./request.ts";

/**
 * Step 5 of a request: the HTTP response PostgREST gives for a plan and its statement's result —
 * status, Content-Range, Preference-Applied, Location, media type, and `response.*` settings.
 */

export function respond(
  res: ServerResponse,
  request: ApiRequest,
  plan: Plan,
  result: StatementResult | undefined,
  options: RestOptions,
): void {
  const base = (contentType: string | undefined): Record<string, string> => {
    const headers: Record<string, string> = {};
    if (contentType) headers["Content-Type"] = contentType;
    if (options.schemas.length > 1) headers["Content-Profile"] = request.schema;
    return headers;
  };
  switch (plan.kind) {
    case "root":
      return send(res, 200, { "Content-Type": "application/openapi+json; charset=utf-8" }, plan.body, request.head);
    case "read":
      return respondRows(
        res,
        request,
        result!,
        plan.accepted,
        base(contentTypeOf(plan.accepted)),
        applied(request.prefs, ["count", "handling"]),
        { "Content-Location": plan.location },
      );
    case "mutate":
      return respondMutation(res, request, plan, result, base);
    case "call":
      return respondCall(res, request, plan, result!, base);
  }
}

const contentTypeOf = (accepted: Accepted) => contentTypes[accepted.type === "openapi" ? "json" : accepted.type];

function respondRows(
  res: ServerResponse,
  request: ApiRequest,
  result: StatementResult,
  accepted: Accepted,
  headers: Record<string, string>,
  preferenceApplied: string | undefined,
  extra: Record<string, string> = {},
): void {
  const { offset } = request;
  const row = result.rows[0] ?? {};
  const pageTotal = Number(row.page_total ?? 0);
  const total = row.total === null || row.total === undefined ? null : Number(row.total);
  if (accepted.type === "object" && pageTotal !== 1) throw errors.singular(pageTotal);
  if (total !== null && offset > 0 && offset >= total && pageTotal === 0)
    throw errors.invalidRange(`An offset of ${offset} was requested, but there are only ${total} rows.`);
  headers["Content-Range"] = contentRange(offset, pageTotal, total);
  Object.assign(headers, extra);
  if (preferenceApplied) headers["Preference-Applied"] = preferenceApplied;
  let status = 200;
  if (total !== null && (offset > 0 || offset + pageTotal < total)) status = 206;
  status = withResponseGucs(row, status, headers);
  send(res, status, headers, String(row.body ?? (accepted.type === "object" ? "null" : "[]")), request.head);
}

/** PostgREST's Content-Range for mutations: a range only for updates, the total with a count preference. */
function mutationRange(style: RangeStyle, affected: number, counted: boolean): string {
  const range = style === "update" && affected > 0 ? `0-${affected - 1}` : "*";
  return `${range}/${counted ? affected : "*"}`;
}

function respondMutation(
  res: ServerResponse,
  request: ApiRequest,
  plan: MutatePlan,
  result: StatementResult | undefined,
  base: (type: string | undefined) => Record<string, string>,
): void {
  const representation = !!plan.node;
  if (!result) {
    // PATCH with nothing to change.
    const headers = { ...base(representation ? contentTypes.json : undefined), "Content-Range": "*/*" };
    return send(res, representation ? 200 : 204, headers, representation ? "[]" : undefined, request.head);
  }
  const extra: Record<string, string> = {};
  let status = plan.status;
  if (plan.insert) {
    const first = result.rows[0];
    const { relation } = plan;
    if (plan.insert.locate && first) {
      extra.Location = `/${relation.name}?${relation.primaryKey.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[`pgrst_pk_${c}`]))}`).join("&")}`;
    }
    if (!plan.insert.put && plan.insert.resolution === "merge-duplicates") {
      const inserted = representation ? Number(first?.inserted ?? 0) : result.rows.filter((r) => r.inserted === true).length;
      if (inserted === 0) status = { minimal: 200, full: 200 };
    }
  }
  const prefApplied = applied(request.prefs, plan.appliedKeys);
  const counted = !!request.prefs.count;
  if (!representation) {
    const headers: Record<string, string> = {
      ...base(undefined),
      "Content-Range": mutationRange(plan.style, result.rowCount, counted),
      ...extra,
    };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(res, status.minimal, headers, undefined, true);
  }
  const row = result.rows[0] ?? {};
  const pageTotal = Number(row.page_total ?? 0);
  const headers: Record<string, string> = {
    ...base(contentTypeOf(plan.accepted)),
    "Content-Range": mutationRange(plan.style, pageTotal, counted),
    ...extra,
  };
  if (prefApplied) headers["Preference-Applied"] = prefApplied;
  send(res, withResponseGucs(row, status.full, headers), headers, String(row.body ?? "[]"), request.head);
}

function respondCall(
  res: ServerResponse,
  request: ApiRequest,
  plan: CallPlan,
  result: StatementResult,
  base: (type: string | undefined) => Record<string, string>,
): void {
  const row = result.rows[0] ?? {};
  const prefApplied = applied(request.prefs, ["count", "handling", "maxAffected"]);
  const { routine } = plan;
  if (routine.returnsSet) return respondRows(res, request, result, plan.accepted, base(contentTypeOf(plan.accepted)), prefApplied);
  const single = contentRange(0, 1, row.total === null || row.total === undefined ? null : Number(row.total));
  if (routine.returnKind === "void") {
    const headers: Record<string, string> = { "Content-Range": single };
    if (prefApplied) headers["Preference-Applied"] = prefApplied;
    return send(res, withResponseGucs(row, 204, headers), headers, undefined, true);
  }
  const headers: Record<string, string> = { "Content-Range": single, ...base(contentTypes.json) };
  if (prefApplied) headers["Preference-Applied"] = prefApplied;
  send(res, withResponseGucs(row, 200, headers), headers, String(row.body ?? "null"), request.head);
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

/** Applies `response.status` / `response.headers` set by the SQL (PGRST111/112 when malformed). */
function withResponseGucs(row: Record<string, unknown>, status: number, headers: Record<string, string>): number {
  if (typeof row.response_headers === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.response_headers);
    } catch {
      parsed = undefined;
    }
    const valid =
      Array.isArray(parsed) &&
      parsed.every(
        (h) => h && typeof h === "object" && !Array.isArray(h) && Object.keys(h).length === 1 && typeof Object.values(h)[0] === "string",
      );
    if (!valid)
      throw new ApiError(
        500,
        "PGRST111",
        "response.headers guc must be a JSON array composed of objects with a single key and a string value",
      );
    for (const entry of parsed as Record<string, string>[]) {
      const [name, value] = Object.entries(entry)[0];
      for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
      headers[name] = value;
    }
  }
  if (typeof row.response_status === "string") {
    const code = Number(row.response_status);
    if (!/^\d+$/.test(row.response_status) || code < 100 || code > 599)
      throw new ApiError(500, "PGRST112", "response.status guc must be a valid status code");
    return code;
  }
  return status;
}

export function sendError(res: ServerResponse, error: ApiError, head = false): void {
  const payload = JSON.stringify(error.body());
  res.writeHead(error.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": head ? 0 : Buffer.byteLength(payload),
    "Proxy-Status": `PostgREST; error=${error.code}`,
    ...error.headers,
  });
  res.end(head ? undefined : payload);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | undefined, head: boolean): void {
  if (body === undefined || head) {
    res.writeHead(status, body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
  res.end(body);
}

function contentRange(offset: number, pageTotal: number, total: number | null): string {
  const range = pageTotal > 0 ? `${offset}-${offset + pageTotal - 1}` : "*";
  return `${range}/${total ?? "*"}`;
}

const contentTypes = {
  json: "application/json; charset=utf-8",
  object: "application/vnd.pgrst.object+json; charset=utf-8",
  array: "application/vnd.pgrst.array+json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
} as const;

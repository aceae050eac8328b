import type { IncomingMessage } from "node:http";
import { errors } from "./errors.ts";
import { type LogicTree, type OrderTerm, parseFilter, parseLogicTree, parseNonNegativeInt, parseOrder, parseSelect, type SelectItem } from "./grammar.ts";
import type { NodeParams } from "./read.ts";

/** The parts of an HTTP request PostgREST acts on, parsed and validated (no schema knowledge yet). */

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

export function parsePreferences(header: string | string[] | undefined): Preferences {
  const prefs: Preferences = { invalid: [] };
  const raw = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((p) => p.trim()).filter(Boolean);
  for (const pref of raw) {
    const [key, value = ""] = pref.split("=").map((s) => s.trim());
    if (key === "max-affected" && /^\d+$/.test(value)) prefs.maxAffected = Number(value);
    else if (key === "timezone") continue;
    else if (preferenceValues[key]?.includes(value)) (prefs as unknown as Record<string, string>)[key] = value;
    else prefs.invalid.push(pref);
  }
  return prefs;
}

export type MediaType = "json" | "object" | "array" | "csv" | "openapi";
export interface Accepted {
  type: MediaType;
  stripNulls: boolean;
}

/** Content negotiation on Accept, in the client's order of preference (q values honoured). */
export function negotiate(header: string | undefined, allowed: MediaType[] = ["json", "object", "array", "csv"]): Accepted {
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
export function parseQuery(search: URLSearchParams, isArgument: (key: string) => boolean = () => false): QueryParts {
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
  }
  else if (name === "offset") node.offset = parseNonNegativeInt(value, "offset");
  else if (!reserved.has(name)) node.conditions.push(parseFilter(name, value));
}

/** `Range: 0-9` (items), as PostgREST reads it. */
export function parseRangeHeader(header: string | undefined): { from: number; to?: number } | undefined {
  if (!header) return undefined;
  const match = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(header);
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = match[2] ? Number(match[2]) : undefined;
  if (to !== undefined && to < from) throw errors.invalidRange("The lower boundary must be lower than or equal to the upper boundary in the Range header.");
  return { from, to };
}

export const maxBodyBytes = 10 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
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

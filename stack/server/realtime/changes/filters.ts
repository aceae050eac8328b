// postgres_changes filters: `column=op.value` (eq, neq, lt, lte, gt, gte, in), several joined by
// commas meaning AND. Values are compared as their column's type, like Realtime's
// check_equality_op. A NULL value never matches; a column the change does not carry (an
// unchanged TOAST value, a non-key column of a DELETE without REPLICA IDENTITY FULL) is not
// filtered on, as in Realtime's is_visible_through_filters.

const filterOps = ["eq", "neq", "lt", "lte", "gt", "gte", "in"] as const;
export type FilterOp = (typeof filterOps)[number];

export interface Filter {
  column: string;
  op: FilterOp;
  /** Raw values as written (one, or several for `in`). */
  values: string[];
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
}

/** Splits on commas outside double quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === "\\") {
      current += c + (text[++i] ?? "");
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
    if (c === "," && !quoted && depth === 0) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

const inspectList = (items: string[]) => `[${items.map((i) => JSON.stringify(i)).join(", ")}]`;

/** Parses a filter string; the error text is Realtime's ("Error parsing `filter` params: …"). */
export function parseFilters(filter: string): { ok: true; filters: Filter[] } | { ok: false; message: string } {
  const filters: Filter[] = [];
  for (const part of splitTopLevel(filter)) {
    const eq = part.indexOf("=");
    if (eq < 0) return { ok: false, message: `Error parsing \`filter\` params: ${inspectList([part])}` };
    const column = part.slice(0, eq);
    const rest = part.slice(eq + 1);
    const dot = rest.indexOf(".");
    const op = dot < 0 ? rest : rest.slice(0, dot);
    if (dot < 0 || !(filterOps as readonly string[]).includes(op)) {
      return { ok: false, message: `Error parsing \`filter\` params: ${inspectList(dot < 0 ? [rest] : [op, rest.slice(dot + 1)])}` };
    }
    const raw = rest.slice(dot + 1);
    if (op === "in") {
      const inner = /^\((.*)\)$/.exec(raw);
      if (!inner) return { ok: false, message: "Error parsing `filter` params: `in` filter value must be wrapped by parentheses" };
      const values = splitTopLevel(inner[1]).map((v) => unquote(v.trim()));
      if (values.length > 100) return { ok: false, message: "Error parsing `filter` params: too many values for `in` filter. Maximum 100" };
      filters.push({ column, op: "in", values });
    } else filters.push({ column, op: op as FilterOp, values: [unquote(raw)] });
  }
  return { ok: true, filters };
}

/** A filter whose values were cast by Postgres to the column's type (canonical text). */
export interface TypedFilter extends Filter {
  type: string;
}

const numericTypes = new Set(["int2", "int4", "int8", "oid", "float4", "float8", "numeric"]);
const timeTypes = new Set(["timestamptz", "timestamp", "date"]);

function compare(type: string, a: string, b: string): number {
  if (numericTypes.has(type)) return Number(a) - Number(b);
  if (timeTypes.has(type)) {
    const [x, y] = [
      Date.parse(a.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00")),
      Date.parse(b.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00")),
    ];
    if (!Number.isNaN(x) && !Number.isNaN(y) && x !== y) return x - y;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function matches(filter: TypedFilter, value: string | null | undefined): boolean {
  if (value === undefined) return true;
  if (value === null) return false;
  if (filter.op === "in") return filter.values.some((v) => compare(filter.type, value, v) === 0);
  const c = compare(filter.type, value, filter.values[0]);
  switch (filter.op) {
    case "eq":
      return c === 0;
    case "neq":
      return c !== 0;
    case "lt":
      return c < 0;
    case "lte":
      return c <= 0;
    case "gt":
      return c > 0;
    default:
      return c >= 0;
  }
}

/** Whether a row (column name → text value) passes every filter. */
export function passes(filters: TypedFilter[], row: Map<string, string | null | undefined>): boolean {
  return filters.every((f) => matches(f, row.get(f.column)));
}

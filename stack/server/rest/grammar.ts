import { parseError, unexpected } from "./errors.ts";

/**
 * PostgREST's query-string grammar: `select`, filters (`col=op.value`), logic trees (`or=(…)`)
 * and `order`. Pure parsing into trees; nothing here knows the schema.
 */

export interface JsonStep {
  arrow: "->" | "->>";
  key: string;
}

export interface Field {
  name: string;
  json: JsonStep[];
}

export type SelectItem =
  | { kind: "star" }
  | { kind: "column"; field: Field; alias?: string; cast?: string; aggregate?: Aggregate; aggregateCast?: string }
  /** An empty `select` (`users!inner()`) embeds nothing: the embed only filters its parent. */
  | { kind: "embed"; name: string; alias?: string; hint?: string; join?: "inner" | "left"; spread: boolean; select: SelectItem[] };

export type Aggregate = "count" | "sum" | "avg" | "max" | "min";

export interface Operation {
  op: string;
  negated: boolean;
  quantifier?: "any" | "all";
  language?: string;
  value: string;
  list?: string[];
}

export interface Filter {
  kind: "filter";
  field: Field;
  operation: Operation;
}

export interface LogicTree {
  kind: "logic";
  op: "and" | "or";
  negated: boolean;
  children: (LogicTree | Filter)[];
}

export interface OrderTerm {
  relation?: string;
  field: Field;
  direction?: "asc" | "desc";
  nulls?: "nullsfirst" | "nullslast";
}

export const operators = new Set([
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "like",
  "ilike",
  "match",
  "imatch",
  "is",
  "isdistinct",
  "in",
  "cs",
  "cd",
  "ov",
  "sl",
  "sr",
  "nxr",
  "nxl",
  "adj",
  "fts",
  "plfts",
  "phfts",
  "wfts",
]);
const quantifiable = new Set(["eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch"]);
const ftsOperators = new Set(["fts", "plfts", "phfts", "wfts"]);
const operatorList = "operator (eq, gt, ...)";
const maxNesting = 64;

/** A cursor over one parameter's text, producing PostgREST-style errors. */
class Cursor {
  pos = 0;
  /** Nesting of embeds and logic trees; bounded so a hostile query cannot exhaust the stack. */
  depth = 0;
  readonly text: string;
  readonly what: string;

  constructor(text: string, what: string) {
    this.text = text;
    this.what = what;
  }

  peek(length = 1): string {
    return this.text.slice(this.pos, this.pos + length);
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  eat(token: string): boolean {
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }

  expect(token: string, expecting = JSON.stringify(token)): void {
    if (!this.eat(token)) this.fail(expecting);
  }

  skipSpaces(): void {
    while (this.text[this.pos] === " ") this.pos++;
  }

  enter(): void {
    if (++this.depth > maxNesting) throw parseError(this.what, this.text, this.pos, `nesting deeper than ${maxNesting} levels`);
  }

  leave(): void {
    this.depth--;
  }

  fail(expecting: string): never {
    throw parseError(this.what, this.text, this.pos, unexpected(this.text, this.pos, expecting));
  }
}

const nameChar = /[\p{L}\p{N}_$ ]/u;

/** A field name: a "quoted" name or letters/digits/_/$/space joined by single dashes. */
function parseName(c: Cursor, expecting = "field name (* or [a..z0..9_$])"): string {
  if (c.peek() === '"') return parseQuoted(c);
  const start = c.pos;
  while (!c.atEnd()) {
    const ch = c.text[c.pos];
    if (nameChar.test(ch)) c.pos++;
    else if (ch === "-" && c.text[c.pos + 1] !== ">" && c.pos > start && nameChar.test(c.text[c.pos + 1] ?? "")) c.pos++;
    else break;
  }
  const name = c.text.slice(start, c.pos).trim();
  if (!name) {
    c.pos = start;
    c.fail(expecting);
  }
  return name;
}

function parseQuoted(c: Cursor): string {
  c.expect('"');
  let out = "";
  while (!c.atEnd() && c.peek() !== '"') {
    if (c.peek() === "\\" && c.pos + 1 < c.text.length) c.pos++;
    out += c.text[c.pos++];
  }
  c.expect('"', '"\\"" or character');
  return out;
}

function parseJsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = [];
  for (;;) {
    let arrow: JsonStep["arrow"];
    if (c.eat("->>")) arrow = "->>";
    else if (c.eat("->")) arrow = "->";
    else return steps;
    let key: string;
    const number = /^-?\d+/.exec(c.text.slice(c.pos));
    if (number && !nameChar.test(c.text[c.pos + number[0].length] ?? "")) {
      key = number[0];
      c.pos += number[0].length;
    } else key = parseName(c, "field name (* or [a..z0..9_$])");
    steps.push({ arrow, key });
  }
}

function parseField(c: Cursor): Field {
  const name = parseName(c);
  return { name, json: parseJsonPath(c) };
}

function parseCast(c: Cursor): string | undefined {
  if (!c.eat("::")) return undefined;
  const start = c.pos;
  while (!c.atEnd() && /[A-Za-z0-9_ ]/.test(c.peek())) c.pos++;
  while (c.eat("[]"));
  const type = c.text.slice(start, c.pos).trim();
  if (!type) c.fail("letter or digit");
  return type;
}

// ---------- select ----------

export function parseSelect(text: string): SelectItem[] {
  const c = new Cursor(text, "select parameter");
  if (!text.trim()) return [{ kind: "star" }];
  const items = parseSelectList(c, true);
  if (!c.atEnd()) c.fail('"," or end of input');
  return items;
}

function parseSelectList(c: Cursor, topLevel: boolean): SelectItem[] {
  const items: SelectItem[] = [];
  c.skipSpaces();
  if (!topLevel && c.peek() === ")") return [];
  for (;;) {
    c.skipSpaces();
    items.push(parseSelectItem(c));
    c.skipSpaces();
    if (!c.eat(",")) return items;
  }
}

function parseSelectItem(c: Cursor): SelectItem {
  if (c.eat("*")) return { kind: "star" };
  if (c.eat("...")) {
    const name = parseName(c);
    const embed = parseEmbedTail(c, name, undefined);
    if (!embed) c.fail('"!" or "("');
    return { ...embed, spread: true };
  }
  const start = c.pos;
  let alias: string | undefined;
  const first = parseName(c);
  if (c.peek() === ":" && c.peek(2) !== "::") {
    c.pos++;
    alias = first;
  } else c.pos = start;
  const nameStart = c.pos;
  const name = parseName(c);
  if (name === "count" && c.peek(2) === "()") {
    c.pos += 2;
    return { kind: "column", field: { name: "*", json: [] }, alias, aggregate: "count", aggregateCast: parseCast(c) };
  }
  const embed = parseEmbedTail(c, name, alias);
  if (embed) return embed;
  c.pos = nameStart;
  const field = parseField(c);
  // `col::type.sum()::type`: a cast of the column, the aggregate, a cast of the aggregate's result.
  const cast = parseCast(c);
  if (c.peek() !== ".") return { kind: "column", field, alias, cast };
  const fn = /^\.(count|sum|avg|max|min)\(\)/.exec(c.text.slice(c.pos));
  if (!fn) c.fail('"," or ")"');
  c.pos += fn[0].length;
  return { kind: "column", field, alias, cast, aggregate: fn[1] as Aggregate, aggregateCast: parseCast(c) };
}

function parseEmbedTail(c: Cursor, name: string, alias: string | undefined): Extract<SelectItem, { kind: "embed" }> | undefined {
  const start = c.pos;
  let hint: string | undefined;
  let join: "inner" | "left" | undefined;
  while (c.peek() === "!") {
    c.pos++;
    const word = parseName(c, "field name (* or [a..z0..9_$])");
    if (word === "inner" || word === "left") join = word;
    else hint = word;
  }
  if (c.peek() !== "(") {
    if (c.pos !== start) c.fail('"("');
    return undefined;
  }
  c.pos++;
  c.enter();
  const select = parseSelectList(c, false);
  c.skipSpaces();
  c.expect(")", '"," or ")"');
  c.leave();
  return { kind: "embed", name, alias, hint, join, spread: false, select };
}

// ---------- filters ----------

/** Parses a filter's value part (`not.eq.5`, `in.(1,2)`, `fts(english).cat`). */
function parseOperation(text: string, what = "filter"): Operation {
  const c = new Cursor(text, what);
  const operation = parseOperationAt(c, false);
  return operation;
}

function parseOperationAt(c: Cursor, inLogic: boolean): Operation {
  let negated = false;
  if (c.text.startsWith("not.", c.pos)) {
    negated = true;
    c.pos += 4;
  }
  const opMatch = /^[a-z]+/.exec(c.text.slice(c.pos));
  const op = opMatch?.[0] ?? "";
  if (!operators.has(op)) c.fail(`"not" or ${operatorList}`);
  c.pos += op.length;
  let quantifier: Operation["quantifier"];
  let language: string | undefined;
  if (c.peek() === "(") {
    const modifier = /^\((any|all)\)/.exec(c.text.slice(c.pos));
    if (modifier && quantifiable.has(op)) {
      quantifier = modifier[1] as "any" | "all";
      c.pos += modifier[0].length;
    } else if (ftsOperators.has(op)) {
      c.pos++;
      const start = c.pos;
      while (!c.atEnd() && /[A-Za-z0-9_]/.test(c.peek())) c.pos++;
      language = c.text.slice(start, c.pos);
      if (!language) c.fail("letter or digit");
      c.expect(")");
    } else c.fail('"."');
  }
  c.expect(".", '"."');
  if (op === "in") {
    const list = parseList(c);
    return { op, negated, value: "", list };
  }
  if (op === "is") {
    const start = c.pos;
    const word = inLogic ? readLogicValue(c) : c.text.slice(c.pos);
    if (!inLogic) c.pos = c.text.length;
    if (!/^(null|not_null|true|false|unknown)$/i.test(word)) {
      c.pos = start;
      c.fail("null or trilean value (unknown, true, false)");
    }
    return { op, negated, value: word.toLowerCase() };
  }
  const value = inLogic ? readLogicValue(c) : c.text.slice(c.pos);
  if (!inLogic) c.pos = c.text.length;
  return { op, negated, quantifier, language, value };
}

/** `(a,b,"c,d")` as used by `in`. */
function parseList(c: Cursor): string[] {
  c.expect("(");
  const items: string[] = [];
  if (c.eat(")")) return items;
  for (;;) {
    const quoted = tryQuoted(c);
    if (quoted !== undefined) items.push(quoted);
    else {
      const start = c.pos;
      while (!c.atEnd() && c.peek() !== "," && c.peek() !== ")") c.pos++;
      items.push(c.text.slice(start, c.pos));
    }
    if (c.eat(")")) return items;
    c.expect(",", '"," or ")"');
  }
}

/** A "quoted" value only when it closes and is followed by `,` or `)`; otherwise the quote is data. */
function tryQuoted(c: Cursor): string | undefined {
  if (c.peek() !== '"') return undefined;
  const start = c.pos;
  try {
    const value = parseQuoted(c);
    if (c.atEnd() || c.peek() === "," || c.peek() === ")") return value;
  } catch {
    // not a complete quoted value
  }
  c.pos = start;
  return undefined;
}

/** A value inside a logic tree: quoted, a {…}/[…] literal, or text up to `,` or `)`. */
function readLogicValue(c: Cursor): string {
  const quoted = tryQuoted(c);
  if (quoted !== undefined) return quoted;
  const start = c.pos;
  let depth = 0;
  while (!c.atEnd()) {
    const ch = c.peek();
    if (ch === "{" || ch === "[" || ch === "(") depth++;
    else if ((ch === "}" || ch === "]" || ch === ")") && depth > 0) depth--;
    else if ((ch === "," || ch === ")") && depth === 0) break;
    c.pos++;
  }
  return c.text.slice(start, c.pos);
}

export function parseFilter(key: string, value: string): Filter {
  const fieldCursor = new Cursor(key, "filter");
  const field = parseField(fieldCursor);
  if (!fieldCursor.atEnd()) fieldCursor.fail(`"->", "->>" or end of input`);
  return { kind: "filter", field, operation: parseOperation(value) };
}

/** `or=(a.eq.1,and(b.gt.2,c.is.null))` — `op` is the key (`or`, `and`, `not.or`, `not.and`). */
export function parseLogicTree(key: string, value: string): LogicTree {
  const negated = key.startsWith("not.");
  const op = (negated ? key.slice(4) : key) as "and" | "or";
  const c = new Cursor(value, "logic tree");
  const children = parseLogicChildren(c);
  if (!c.atEnd()) c.fail("end of input");
  return { kind: "logic", op, negated, children };
}

function parseLogicChildren(c: Cursor): (LogicTree | Filter)[] {
  c.expect("(");
  c.enter();
  const children: (LogicTree | Filter)[] = [];
  for (;;) {
    children.push(parseLogicChild(c));
    if (c.eat(")")) {
      c.leave();
      return children;
    }
    c.expect(",", '"," or ")"');
  }
}

function parseLogicChild(c: Cursor): LogicTree | Filter {
  const logic = /^(not\.)?(and|or)\(/.exec(c.text.slice(c.pos));
  if (logic) {
    c.pos += logic[0].length - 1;
    return { kind: "logic", op: logic[2] as "and" | "or", negated: !!logic[1], children: parseLogicChildren(c) };
  }
  const field = parseField(c);
  c.expect(".", '"->", "->>" or "."');
  return { kind: "filter", field, operation: parseOperationAt(c, true) };
}

// ---------- order ----------

export function parseOrder(text: string): OrderTerm[] {
  const c = new Cursor(text, "order");
  const terms: OrderTerm[] = [];
  for (;;) {
    let relation: string | undefined;
    let field = parseField(c);
    if (c.peek() === "(" && field.json.length === 0) {
      relation = field.name;
      c.pos++;
      field = parseField(c);
      c.expect(")");
    }
    const term: OrderTerm = { relation, field };
    while (c.peek() === ".") {
      c.pos++;
      const word = /^[a-z]+/.exec(c.text.slice(c.pos))?.[0] ?? "";
      if ((word === "asc" || word === "desc") && !term.direction && !term.nulls) term.direction = word;
      else if ((word === "nullsfirst" || word === "nullslast") && !term.nulls) term.nulls = word;
      else c.fail('"asc", "desc", "nullsfirst" or "nullslast"');
      c.pos += word.length;
    }
    terms.push(term);
    if (c.atEnd()) return terms;
    c.expect(",", '"," or end of input');
  }
}

export function parseNonNegativeInt(text: string, what: string): number {
  if (!/^\d+$/.test(text) || text.length > 15) {
    const c = new Cursor(text, `${what} parameter`);
    let i = 0;
    while (/\d/.test(text[i] ?? "")) i++;
    c.pos = i;
    c.fail("digit");
  }
  return Number(text);
}

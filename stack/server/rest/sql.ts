import { quoteIdent as quoteName } from "../sql.ts";
import { ApiError } from "./errors.ts";

/** SQL text helpers. User input never reaches SQL text: it goes through `Params` as $n values. */

const nulError = () => new ApiError(400, "PGRST100", "Names may not contain the NUL character", null, null);

/** Quotes an identifier (always quoted); a name with NUL is a request error, not a Postgres one. */
export function quoteIdent(name: string): string {
  if (name.includes("\u0000")) throw nulError();
  return quoteName(name);
}

/** Quotes a string literal; only for catalog-derived text (column names, defaults), never request input. */
export function quoteLiteral(value: string): string {
  if (value.includes("\u0000")) throw nulError();
  return `'${value.replaceAll("'", "''")}'`;
}

export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** Collects the values of one statement and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Encodes a list as a Postgres array literal ({"a","b"}), quoting every element. */
export function pgArrayLiteral(items: string[]): string {
  return `{${items.map((item) => `"${item.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/** A type name for a cast (`::text`, `::int[]`), limited to characters that cannot escape the cast. */
export function safeCastType(type: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_ ]*(\[\])*$/.test(type) && type.length <= 63 ? type : undefined;
}

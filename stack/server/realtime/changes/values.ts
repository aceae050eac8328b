// Column values from the WAL (PostgreSQL's text output) as JSON, the way Realtime's
// `to_jsonb(value::type)` renders them: numbers, booleans, JSON, arrays, ISO timestamps, strings.

const numericTypes = new Set(["int2", "int4", "int8", "oid", "float4", "float8", "numeric"]);
const jsonNumber = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function timestamptz(text: string): string {
  // "2024-05-01 10:00:00.123+00" → "2024-05-01T10:00:00.123+00:00"
  const match = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?(?::?(\d\d))?$/.exec(text);
  if (!match) return text;
  const [, date, time, hours, minutes = "00", seconds] = match;
  return `${date}T${time}${hours}:${minutes}${seconds ? `:${seconds}` : ""}`;
}

function timetz(text: string): string {
  // "12:34:56+00" → "12:34:56+00:00"
  const match = /^(\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?(?::?(\d\d))?$/.exec(text);
  if (!match) return text;
  const [, time, hours, minutes = "00", seconds] = match;
  return `${time}${hours}:${minutes}${seconds ? `:${seconds}` : ""}`;
}

function scalarJson(type: string, text: string): string {
  if (numericTypes.has(type)) return jsonNumber.test(text) ? text : JSON.stringify(text);
  if (type === "bool") return text === "t" ? "true" : "false";
  if (type === "json" || type === "jsonb") return text;
  if (type === "timestamptz") return JSON.stringify(timestamptz(text));
  if (type === "timestamp") return JSON.stringify(text.replace(" ", "T"));
  if (type === "timetz") return JSON.stringify(timetz(text));
  return JSON.stringify(text);
}

/** Parses a PostgreSQL array literal ("{1,2,NULL}", "{{a,b},{c,d}}", '{"x y","q\"z"}') to nested arrays of text|null. */
type PgArray = Array<string | null | PgArray>;
function parseArrayLiteral(text: string): PgArray {
  let i = text.startsWith("[") ? text.indexOf("=") + 1 : 0; // skip dimension decorations like [0:1]=
  function parseLevel(): PgArray {
    const out: PgArray = [];
    i++; // '{'
    if (text[i] === "}") {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === "{") out.push(parseLevel());
      else if (text[i] === '"') {
        let value = "";
        i++;
        while (text[i] !== '"') {
          if (text[i] === "\\") i++;
          value += text[i++];
        }
        i++;
        out.push(value);
      } else {
        let value = "";
        while (text[i] !== "," && text[i] !== "}") value += text[i++];
        out.push(value === "NULL" ? null : value);
      }
      if (text[i] === ",") i++;
      else {
        i++; // '}'
        return out;
      }
    }
  }
  return parseLevel();
}

function arrayJson(elementType: string, items: PgArray): string {
  return `[${items.map((item) => (item === null ? "null" : Array.isArray(item) ? arrayJson(elementType, item) : scalarJson(elementType, item))).join(",")}]`;
}

/** The JSON text of one column value; `type` is the pg_type name (e.g. int8, text, _int4). */
export function valueJson(type: string, text: string | null): string {
  if (text === null) return "null";
  if (type.startsWith("_")) {
    try {
      return arrayJson(type.slice(1), parseArrayLiteral(text));
    } catch {
      return JSON.stringify(text);
    }
  }
  return scalarJson(type, text);
}

/**
 * Parses a dotenv file (`supabase/functions/.env`) the way the CLI's godotenv reads it: `KEY=VALUE`
 * lines, optional `export `, `#` comments, single quotes literal, double quotes with `\n` escapes.
 */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!match) continue;
    values[match[1]] = unquote(match[2]);
  }
  return values;
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.indexOf(quote, 1) > 0) {
    const inner = value.slice(1, value.indexOf(quote, 1));
    return quote === "'" ? inner : inner.replace(/\\n/g, "\n").replace(/\\r/g, "\r").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  }
  return value.replace(/\s+#.*$/, "").trim();
}

/** PostgREST's error shape and HTTP mapping: `{code, details, hint, message}` plus status and headers. */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly hint: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: unknown = null,
    hint: unknown = null,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.hint = hint;
    this.headers = headers;
  }

  body(): { code: string; details: unknown; hint: unknown; message: string } {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A query-string parse failure (PGRST100), worded like PostgREST's parser errors. */
export function parseError(what: string, input: string, position: number, details: string): ApiError {
  return new ApiError(400, "PGRST100", `"failed to parse ${what} (${input})" (line 1, column ${position + 1})`, details);
}

export function unexpected(input: string, position: number, expecting: string): string {
  const found = position >= input.length ? "end of input" : JSON.stringify(input[position]);
  return `unexpected ${found} expecting ${expecting}`;
}

export const errors = {
  invalidBody: (message: string) => new ApiError(400, "PGRST102", message),
  invalidRange: (details: string) => new ApiError(416, "PGRST103", "Requested range not satisfiable", details),
  unacceptableSchema: (schema: string, exposed: string[]) =>
    new ApiError(406, "PGRST106", `Invalid schema: ${schema}`, null, `Only the following schemas are exposed: ${exposed.join(", ")}`),
  mediaType: (types: string[]) => new ApiError(406, "PGRST107", `None of these media types are available: ${types.join(", ")}`),
  notEmbedded: (resource: string) =>
    new ApiError(
      400,
      "PGRST108",
      `'${resource}' is not an embedded resource in this request`,
      null,
      `Verify that '${resource}' is included in the 'select' query parameter.`,
    ),
  singular: (rows: number) =>
    new ApiError(406, "PGRST116", "Cannot coerce the result to a single JSON object", `The result contains ${rows} rows`),
  unsupportedMethod: (method: string) => new ApiError(405, "PGRST117", `Unsupported HTTP method: ${method}`),
  relatedOrderNotToOne: (origin: string, target: string) =>
    new ApiError(
      400,
      "PGRST118",
      `A related order on '${target}' is not possible`,
      `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
    ),
  invalidPreferences: (prefs: string[]) =>
    new ApiError(400, "PGRST122", "Invalid preferences given with handling=strict", `Invalid preferences: ${prefs.join(", ")}`),
  aggregatesNotAllowed: () => new ApiError(400, "PGRST123", "Use of aggregate functions is not allowed"),
  maxAffected: (rows: number) =>
    new ApiError(400, "PGRST124", "Query result exceeds max-affected preference constraint", `The query affects ${rows} rows`),
  invalidPath: () => new ApiError(404, "PGRST125", "Invalid path specified in request URL"),
  notImplemented: (details: string) => new ApiError(400, "PGRST127", "Feature not implemented", details),
  invalidRpcMethod: (method: string) => new ApiError(405, "PGRST101", `Cannot use the ${method} method on RPC`),
  noRelationship: (parent: string, child: string, schema: string, hint: string | undefined, suggestion: string | null) =>
    new ApiError(
      400,
      "PGRST200",
      `Could not find a relationship between '${parent}' and '${child}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent}' and '${child}${hint ? `' using the hint '${hint}` : ""}' in the schema '${schema}', but no matches were found.`,
      suggestion,
    ),
  ambiguousRelationship: (parent: string, child: string, details: unknown[], hints: string[]) =>
    new ApiError(
      300,
      "PGRST201",
      `Could not embed because more than one relationship was found for '${parent}' and '${child}'`,
      details,
      `Try changing '${child}' to one of the following: ${hints.join(", ")}. Find the desired relationship in the 'details' key.`,
    ),
  columnNotFound: (relation: string, column: string) =>
    new ApiError(400, "PGRST204", `Could not find the '${column}' column of '${relation}' in the schema cache`),
  tableNotFound: (schema: string, name: string, suggestion: string | null) =>
    new ApiError(
      404,
      "PGRST205",
      `Could not find the table '${schema}.${name}' in the schema cache`,
      null,
      suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
    ),
  jwtDecode: (message: string, details: string | null = null) =>
    new ApiError(401, "PGRST301", message, details, null, {
      "WWW-Authenticate": `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    }),
  jwtClaims: (message: string) =>
    new ApiError(401, "PGRST303", message, null, null, {
      "WWW-Authenticate": `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    }),
  payloadTooLarge: (limit: number) => new ApiError(413, "PGRST413", `Payload too large: the request body exceeds ${limit} bytes`),
};

/** The HTTP status PostgREST answers for a Postgres error (SQLSTATE), per its documented table. */
function statusForSqlState(code: string, message: string, authenticated: boolean): number {
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    "57P01": 503,
    P0001: 400,
    "42P01": 404,
    "42P17": 500,
  };
  if (code in exact) return exact[code];
  if (code === "42501") return authenticated ? 403 : 401;
  if (code === "42883") return message.startsWith("function xmlagg(") ? 406 : 404;
  if (code === "21000") return message.endsWith("requires a WHERE clause") ? 400 : 500;
  if (code === "22023") return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
  const prefixes: [string, number][] = [
    ["08", 503],
    ["09", 500],
    ["0L", 403],
    ["0P", 403],
    ["25", 500],
    ["28", 403],
    ["2D", 500],
    ["38", 500],
    ["39", 500],
    ["3B", 500],
    ["40", 500],
    ["53", 503],
    ["54", 500],
    ["55", 500],
    ["57", 500],
    ["58", 500],
    ["F0", 500],
    ["HV", 500],
    ["P0", 500],
    ["XX", 500],
  ];
  for (const [prefix, status] of prefixes) if (code.startsWith(prefix)) return status;
  if (code.startsWith("PT")) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  return 400;
}

interface PgErrorLike {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** Turns an error thrown by node-postgres into PostgREST's response, including RAISE SQLSTATE 'PGRST'. */
export function fromPgError(error: PgErrorLike, authenticated: boolean): ApiError {
  const code = error.code ?? "PGRST000";
  if (code === "PGRST") return fromRaisePgrst(error);
  const status = statusForSqlState(code, error.message, authenticated);
  return new ApiError(
    status,
    code,
    error.message,
    error.detail ?? null,
    error.hint ?? null,
    status === 401 ? { "WWW-Authenticate": "Bearer" } : {},
  );
}

function fromRaisePgrst(error: PgErrorLike): ApiError {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(error.message) as Record<string, unknown>;
    if (!message || typeof message !== "object" || typeof message.code !== "string" || typeof message.message !== "string")
      throw new Error();
  } catch {
    return new ApiError(
      500,
      "PGRST121",
      `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
      `Invalid JSON value for MESSAGE: '${error.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    );
  }
  let detail: { status?: unknown; headers?: unknown };
  try {
    if (error.detail === undefined) throw new Error("none");
    detail = JSON.parse(error.detail) as typeof detail;
    if (typeof detail.status !== "number" || !detail.headers || typeof detail.headers !== "object") throw new Error();
  } catch (cause) {
    const none = cause instanceof Error && cause.message === "none";
    return new ApiError(
      500,
      "PGRST121",
      `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
      none ? "DETAIL is missing in the RAISE statement" : `Invalid JSON value for DETAIL: '${error.detail}'`,
      "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    );
  }
  const headers = Object.fromEntries(Object.entries(detail.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  return new ApiError(
    detail.status as number,
    message.code as string,
    message.message as string,
    message.details ?? null,
    message.hint ?? null,
    headers,
  );
}

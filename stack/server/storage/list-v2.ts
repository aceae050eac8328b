import { inTransaction } from "./db.ts";
import { StorageError, errors } from "./errors.ts";
import { optionalString, readJson, requireInteger, sendBody } from "./http.ts";
import { callerOf, type StorageRequest } from "./request.ts";

/** storage-api's continuation token: base64 of `l:<start after>\no:<order>\nc:<column>\na:<column value>` lines. */
interface Cursor {
  startAfter: string;
  sortOrder: "asc" | "desc";
  sortColumn?: SortColumn;
  sortColumnAfter?: string;
}

type SortColumn = "name" | "updated_at" | "created_at";
const cursorParts: [string, keyof Cursor][] = [
  ["l", "startAfter"],
  ["o", "sortOrder"],
  ["c", "sortColumn"],
  ["a", "sortColumnAfter"],
];

function encodeCursor(cursor: Cursor): string {
  const lines = cursorParts.filter(([, key]) => cursor[key]).map(([part, key]) => `${part}:${cursor[key]}`);
  return Buffer.from(lines.join("\n")).toString("base64");
}

const badCursor = () => new StorageError({ statusCode: 400, code: "InvalidParameter", message: "Invalid Parameter continuation token" });

function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: "", sortOrder: "asc" };
  for (const line of Buffer.from(token, "base64").toString().split("\n")) {
    const match = /^(\S):(.*)/.exec(line);
    const key = cursorParts.find(([part]) => part === match?.[1])?.[1];
    if (!match || !key) throw badCursor();
    (cursor as unknown as Record<string, string>)[key] = match[2];
  }
  if (cursor.sortOrder !== "asc" && cursor.sortOrder !== "desc") throw badCursor();
  if (cursor.sortColumn && !sortColumns.has(cursor.sortColumn)) throw badCursor();
  return cursor;
}

const sortColumns = new Set<string>(["name", "updated_at", "created_at"]);

interface Options {
  prefix: string;
  limit: number;
  delimiter: boolean;
  cursor?: Cursor;
  column?: SortColumn;
  order: "asc" | "desc";
}

/** The body, checked as storage-api's JSON schema checks it (Fastify's messages). */
function parseOptions(body: Record<string, unknown>): Options {
  const prefix = optionalString(body, "prefix") ?? "";
  const limit = body.limit === undefined ? 1000 : requireInteger(body, "limit", 1);
  if (body.with_delimiter !== undefined && typeof body.with_delimiter !== "boolean")
    throw errors.validation("body/with_delimiter must be boolean");
  const token = optionalString(body, "cursor");
  let column: SortColumn | undefined;
  let order: "asc" | "desc" = "asc";
  if (body.sortBy !== undefined) {
    if (!body.sortBy || typeof body.sortBy !== "object" || Array.isArray(body.sortBy))
      throw errors.validation("body/sortBy must be object");
    const sortBy = body.sortBy as Record<string, unknown>;
    if (sortBy.column === undefined) throw errors.validation("body/sortBy must have required property 'column'");
    if (typeof sortBy.column !== "string" || !sortColumns.has(sortBy.column))
      throw errors.validation("body/sortBy/column must be equal to one of the allowed values");
    if (sortBy.order !== undefined && sortBy.order !== "asc" && sortBy.order !== "desc")
      throw errors.validation("body/sortBy/order must be equal to one of the allowed values");
    column = sortBy.column as SortColumn;
    order = (sortBy.order as "asc" | "desc" | undefined) ?? "asc";
  }
  const cursor = token ? decodeCursor(token) : undefined;
  return {
    prefix,
    limit: Math.min(limit, 1000),
    delimiter: body.with_delimiter === true,
    cursor,
    column: cursor?.sortColumn ?? column,
    order: cursor?.sortOrder ?? order,
  };
}

interface Row {
  key: string;
  folder: boolean;
  id: string | null;
  name: string;
  metadata: unknown;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of entries as the caller may see them (RLS decides): objects whose names start with the
 * prefix, or with a delimiter each sub-folder once (its key ending in `/`) and the objects directly
 * below the prefix. Ordered by key in byte order (or by a date column, then key), after the cursor.
 */
async function page(request: StorageRequest, bucketId: string, options: Options): Promise<Row[]> {
  const { prefix, cursor, order } = options;
  const dated = options.column && options.column !== "name" && !options.delimiter ? options.column : undefined;
  const values: unknown[] = [bucketId, `${escapeLike(prefix)}%`, prefix.length, options.limit + 1];
  const keyExpr = options.delimiter
    ? `case when strpos(substr(name, $3::int + 1), '/') > 0 then left(name, $3::int + strpos(substr(name, $3::int + 1), '/')) else name end`
    : "name";
  const conditions: string[] = [];
  const operator = order === "asc" ? ">" : "<";
  if (cursor?.startAfter) {
    values.push(cursor.startAfter);
    if (dated && cursor.sortColumnAfter) {
      values.push(cursor.sortColumnAfter);
      conditions.push(
        `(date_trunc('milliseconds', ${dated}), key collate "C") ${operator} (coalesce(nullif($${values.length}, '')::timestamptz, 'epoch'), $${values.length - 1})`,
      );
    } else {
      conditions.push(`key collate "C" ${operator} $${values.length}`);
    }
  }
  const orderBy = `${dated ? `${dated} ${order}, ` : ""}key collate "C" ${order}`;
  const sql = `
    with entries as (
      select ${keyExpr} as key, id, name, metadata, updated_at, created_at, last_accessed_at
      from storage.objects where bucket_id = $1 and name like $2 and length(name) >= $3::int
    ), grouped as (
      select distinct on (key collate "C") key, key <> name as folder, id, name, metadata, updated_at, created_at, last_accessed_at
      from entries order by key collate "C", name collate "C"
    )
    select * from grouped ${conditions.length ? `where ${conditions.join(" and ")}` : ""}
    order by ${orderBy} limit $4`;
  return await inTransaction(request.server.authenticatorPool, callerOf(request), async (tx) => (await tx.query<Row>(sql, values)).rows);
}

/** POST /object/list-v2/{bucket} {prefix, limit, cursor, with_delimiter, sortBy}: storage-api's paginated listing. */
export async function listObjectsV2(request: StorageRequest, bucketId: string): Promise<void> {
  const options = parseOptions(await readJson(request.req));
  const rows = await page(request, bucketId, options);
  const hasNext = rows.length > options.limit;
  const shown = rows.slice(0, options.limit);
  const folders = shown.filter((row) => row.folder).map((row) => ({ id: null, name: row.key }));
  // With a delimiter storage-api lists through storage.search_v2, whose rows also carry `key`: the
  // name's segment at the prefix's depth (split_part(name, '/', levels)), the file name in its folder.
  const levels = options.prefix ? options.prefix.split("/").length : 1;
  const objects = shown
    .filter((row) => !row.folder)
    .map((row) => ({
      ...(options.delimiter ? { key: row.name.split("/")[levels - 1] ?? "" } : {}),
      id: row.id,
      name: row.name,
      metadata: row.metadata,
      updated_at: row.updated_at,
      created_at: row.created_at,
      last_accessed_at: row.last_accessed_at,
    }));
  const body: Record<string, unknown> = { hasNext, folders, objects };
  if (hasNext) {
    const last = shown[shown.length - 1];
    const column = options.column;
    const after = column && column !== "name" && last[column] ? new Date(last[column]).toISOString() : undefined;
    body.nextCursor = encodeCursor({ startAfter: last.key, sortOrder: options.order, sortColumn: column, sortColumnAfter: after });
    body.nextCursorKey = last.key;
  }
  sendBody(request.res, 200, body);
}

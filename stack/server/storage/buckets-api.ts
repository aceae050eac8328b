import { type Bucket, bucketColumns, shapeBucket } from "./bucket-store.ts";
import { inTransaction } from "./db.ts";
import { removeBucketFiles, removeObjectFile } from "./disk.ts";
import { errors } from "./errors.ts";
import { readJson, requireString, sendBody } from "./http.ts";
import { isUuid, mustBeValidBucketName, mustBeValidMimeTypes, parseApiSize } from "./names.ts";
import { callerOf, type StorageRequest } from "./request.ts";

/** storage-api's STORAGE_EMPTY_BUCKET_MAX default. */
const emptyBucketMax = 200_000;

// The bucket API runs as the caller too: storage.buckets' RLS (no policies → only service_role) decides.

/** The bucket settings a create or update body carries; undefined leaves a column as it is. */
function bucketSettings(request: StorageRequest, body: Record<string, unknown>) {
  let fileSizeLimit: number | null | undefined;
  const limit = body.file_size_limit;
  if (limit === null) fileSizeLimit = null;
  else if (typeof limit === "number" || typeof limit === "string") {
    if (typeof limit === "number" && (!Number.isInteger(limit) || limit < 0))
      throw errors.validation("body/file_size_limit must be integer");
    fileSizeLimit = parseApiSize(limit);
    if (fileSizeLimit > request.globalLimit) throw errors.entityTooLarge();
  } else if (limit !== undefined) throw errors.validation("body/file_size_limit must match a schema in anyOf");
  let allowedMimeTypes: string[] | null | undefined;
  const types = body.allowed_mime_types;
  if (types === null) allowedMimeTypes = null;
  else if (Array.isArray(types)) {
    if (types.some((type) => typeof type !== "string")) throw errors.validation("body/allowed_mime_types must be array of strings");
    allowedMimeTypes = (types as string[]).filter((type) => type);
    mustBeValidMimeTypes(allowedMimeTypes);
  } else if (types !== undefined) throw errors.validation("body/allowed_mime_types must be array");
  if (body.public !== undefined && typeof body.public !== "boolean") throw errors.validation("body/public must be boolean");
  return { isPublic: body.public as boolean | undefined, fileSizeLimit, allowedMimeTypes };
}

const sortableBucketColumns = new Set(["id", "name", "created_at", "updated_at"]);

/** GET /bucket (limit, offset, search, sortColumn, sortOrder). */
export async function listBuckets(request: StorageRequest): Promise<void> {
  const caller = callerOf(request);
  const query = request.url.searchParams;
  const params: unknown[] = [];
  let sql = `select ${bucketColumns} from storage.buckets`;
  const search = query.get("search");
  if (search) {
    params.push(`%${search}%`);
    sql += ` where name ilike $${params.length}`;
  }
  const sortColumn = query.get("sortColumn");
  if (sortColumn) {
    if (!sortableBucketColumns.has(sortColumn))
      throw errors.validation("querystring/sortColumn must be equal to one of the allowed values");
    sql += ` order by ${sortColumn} ${query.get("sortOrder") === "desc" ? "desc" : "asc"}`;
  }
  for (const [name, minimum] of [
    ["limit", 1],
    ["offset", 0],
  ] as const) {
    const value = query.get(name);
    if (value === null) continue;
    if (!/^\d+$/.test(value) || Number(value) < minimum) throw errors.validation(`querystring/${name} must be integer >= ${minimum}`);
    params.push(Number(value));
    sql += ` ${name} $${params.length}`;
  }
  const rows = await inTransaction(request.server.authenticatorPool, caller, async (tx) => (await tx.query(sql, params)).rows);
  sendBody(request.res, 200, rows.map(shapeBucket));
}

/** GET /bucket/{id}. */
export async function getBucket(request: StorageRequest, id: string): Promise<void> {
  const caller = callerOf(request);
  const row = await inTransaction(
    request.server.authenticatorPool,
    caller,
    async (tx) => (await tx.query(`select ${bucketColumns} from storage.buckets where id = $1`, [id])).rows[0],
  );
  if (!row) throw errors.noSuchBucket();
  // storage-api's GET /bucket/{id} selects every column but `type` (only the list names it).
  const bucket: Partial<Bucket> = shapeBucket(row);
  delete bucket.type;
  sendBody(request.res, 200, bucket);
}

/** POST /bucket {name, id?, public?, file_size_limit?, allowed_mime_types?, type?}. */
export async function createBucket(request: StorageRequest): Promise<void> {
  const caller = callerOf(request);
  const body = await readJson(request.req);
  const name = requireString(body, "name");
  const id = typeof body.id === "string" && body.id ? body.id : name;
  mustBeValidBucketName(name);
  mustBeValidBucketName(id);
  const settings = bucketSettings(request, body);
  const type = body.type === "ANALYTICS" ? "ANALYTICS" : "STANDARD";
  await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    await tx.query(
      `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
       values ($1, $2, $3, $4, $5, $6, $7, $8::storage.buckettype)`,
      [
        id,
        name,
        isUuid(caller.owner) ? caller.owner : null,
        caller.owner ?? null,
        settings.isPublic ?? false,
        settings.fileSizeLimit ?? null,
        settings.allowedMimeTypes ?? null,
        type,
      ],
    );
  }).catch((error: { code?: string }) => {
    throw error.code === "ResourceAlreadyExists" ? errors.bucketAlreadyExists() : error;
  });
  sendBody(request.res, 200, { name });
}

/** PUT /bucket/{id}: only the settings the body names change. */
export async function updateBucket(request: StorageRequest, id: string): Promise<void> {
  const caller = callerOf(request);
  mustBeValidBucketName(id);
  const settings = bucketSettings(request, await readJson(request.req));
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [column, value] of [
    ["public", settings.isPublic],
    ["file_size_limit", settings.fileSizeLimit],
    ["allowed_mime_types", settings.allowedMimeTypes],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  sets.push("updated_at = now()");
  const count = await inTransaction(
    request.server.authenticatorPool,
    caller,
    async (tx) => (await tx.query(`update storage.buckets set ${sets.join(", ")} where id = $1`, params)).rowCount,
  );
  if (!count) throw errors.noSuchBucket();
  sendBody(request.res, 200, { message: "Successfully updated" });
}

/** POST /bucket/{id}/empty: deletes every object the caller may delete; refuses if some remain visible. */
export async function emptyBucket(request: StorageRequest, id: string): Promise<void> {
  const caller = callerOf(request);
  const before = new Date();
  const deleted = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    const bucket = await tx.query("select id from storage.buckets where id = $1", [id]);
    if (!bucket.rows[0]) throw errors.noSuchBucket();
    const { rows: counted } = await tx.query(
      "select count(*)::int as n from (select 1 from storage.objects where bucket_id = $1 limit $2) o",
      [id, emptyBucketMax + 1],
    );
    if (counted[0].n > emptyBucketMax) throw errors.unableToEmptyBucket("Unable to empty the bucket because it contains too many objects");
    // Nothing the caller can see: storage-api queues nothing.
    if (counted[0].n === 0) return [];
    // The queued job deletes as Storage itself: every object created before the request.
    await tx.actAs("service");
    const { rows } = await tx.query("delete from storage.objects where bucket_id = $1 and created_at <= $2 returning name, version", [
      id,
      before,
    ]);
    return rows as { name: string; version: string | null }[];
  });
  await Promise.all(deleted.map((row) => removeObjectFile(id, row.name, row.version)));
  sendBody(request.res, 200, { message: "Empty bucket has been queued. Completion may take up to an hour." });
}

/** DELETE /bucket/{id}: only an empty bucket. */
export async function deleteBucket(request: StorageRequest, id: string): Promise<void> {
  const caller = callerOf(request);
  mustBeValidBucketName(id);
  await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    await tx.actAs("service");
    const bucket = await tx.query("select id from storage.buckets where id = $1 for update", [id]);
    if (!bucket.rows[0]) throw errors.noSuchBucket();
    const objects = await tx.query("select 1 from storage.objects where bucket_id = $1 limit 1", [id]);
    if (objects.rows.length > 0) throw errors.bucketNotEmpty();
    await tx.actAs("caller");
    const deleted = await tx.query("delete from storage.buckets where id = $1", [id]);
    if (!deleted.rowCount) throw errors.noSuchBucket();
  });
  await removeBucketFiles(id);
  sendBody(request.res, 200, { message: "Successfully deleted" });
}

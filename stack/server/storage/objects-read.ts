import { serviceCaller } from "./caller.ts";
import { mustFindBucket } from "./bucket-store.ts";
import { type Caller, inTransaction } from "./db.ts";
import { errors } from "./errors.ts";
import { readJson, requireInteger, requireStringArray, sendBody } from "./http.ts";
import { mustBeValidKey } from "./names.ts";
import { renderImage } from "./image.ts";
import { infoHeaders, objectInfo, renderObject, type StoredObject } from "./render.ts";
import { callerOf, type StorageRequest } from "./request.ts";
import { signUrlToken, verifyDownloadToken } from "./signing.ts";
import { parseTransform, transformFromClaim, transformFromQuery, transformSegments } from "./transform.ts";

const objectColumns = "id, bucket_id, name, version, metadata, user_metadata, created_at, updated_at";

/** Finds an object's row as `caller` (RLS decides what it may see): NoSuchKey when it cannot. */
export async function findObject(request: StorageRequest, caller: Caller, bucketId: string, name: string): Promise<StoredObject> {
  mustBeValidKey(name);
  const object = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    const { rows } = await tx.query(`select ${objectColumns} from storage.objects where bucket_id = $1 and name = $2`, [bucketId, name]);
    return rows[0] as StoredObject | undefined;
  });
  if (!object) throw errors.noSuchKey();
  return object;
}

/**
 * The object a read route serves, as storage-api decides it: no valid JWT → only public buckets;
 * a public bucket (or the /public/ route) → read as Storage itself; otherwise as the caller.
 */
async function readableObject(request: StorageRequest, bucketId: string, name: string, publicRoute: boolean): Promise<StoredObject> {
  const caller = callerOf(request, true);
  const bucket = await mustFindBucket(request.server.adminPool, bucketId);
  if ((publicRoute || !caller.authenticated) && !bucket.public) throw errors.noSuchBucket();
  return findObject(request, bucket.public ? serviceCaller : caller, bucketId, name);
}

function downloadParam(request: StorageRequest): string | undefined {
  return request.url.searchParams.has("download") ? (request.url.searchParams.get("download") ?? "") : undefined;
}

/** GET|HEAD /object/{bucket}/{name}, /object/authenticated/…, /object/public/…. */
export async function serveObject(request: StorageRequest, bucketId: string, name: string, publicRoute: boolean): Promise<void> {
  const object = await readableObject(request, bucketId, name, publicRoute);
  await renderObject(request.req, request.res, object, { download: downloadParam(request) });
}

/** GET /object/info/{bucket}/{name} (and its /authenticated/ and /public/ forms). */
export async function serveInfo(request: StorageRequest, bucketId: string, name: string, publicRoute: boolean): Promise<void> {
  const object = await readableObject(request, bucketId, name, publicRoute);
  sendBody(request.res, 200, objectInfo(object), infoHeaders(object));
}

/** GET /object/sign/{bucket}/{name}?token=…: the token alone grants the read. */
export async function serveSigned(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const { exp } = verifyDownloadToken(request.url.searchParams.get("token"), `${bucketId}/${name}`);
  const object = await findObject(request, serviceCaller, bucketId, name);
  await renderObject(request.req, request.res, object, { download: downloadParam(request), expires: new Date(exp * 1000).toUTCString() });
}

/**
 * GET|HEAD /render/image/public/{bucket}/{name} and /render/image/authenticated/…: the object read
 * as for a download (a public bucket for the public route; otherwise as the caller, so RLS decides),
 * transformed by the query's width, height, resize, quality and format.
 */
export async function serveImage(request: StorageRequest, bucketId: string, name: string, publicRoute: boolean): Promise<void> {
  const transform = transformFromQuery(request.url.searchParams);
  const object = await readableObject(request, bucketId, name, publicRoute);
  await renderImage(request.req, request.res, object, { transform, download: downloadParam(request) });
}

/** GET|HEAD /render/image/sign/{bucket}/{name}?token=…: the transformation is the one signed into the token; the query's are ignored. */
export async function serveSignedImage(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const { exp, claims } = verifyDownloadToken(request.url.searchParams.get("token"), `${bucketId}/${name}`);
  const object = await findObject(request, serviceCaller, bucketId, name);
  await renderImage(request.req, request.res, object, {
    transform: transformFromClaim(claims.transformations, claims.format),
    download: downloadParam(request),
    expires: new Date(exp * 1000).toUTCString(),
  });
}

/**
 * POST /object/sign/{bucket}/{name} {expiresIn, transform?}: signs a download URL for an object the
 * caller can see. With image transformation on, a transform is signed into the token and the URL is
 * a /render/image/sign/ one, as storage-api does.
 */
export async function signObject(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = callerOf(request);
  const body = await readJson(request.req);
  const expiresIn = requireInteger(body, "expiresIn", 1);
  if (body.transform !== undefined && (!body.transform || typeof body.transform !== "object" || Array.isArray(body.transform)))
    throw errors.validation("body/transform must be object");
  const transform = body.transform ? parseTransform(body.transform as Record<string, unknown>, "body/transform") : {};
  await findObject(request, caller, bucketId, name);
  const url = `${bucketId}/${name}`;
  const claims: Record<string, unknown> = { url };
  if (request.imageTransformation) {
    const transformations = transformSegments(transform).join(",");
    if (transformations) claims.transformations = transformations;
    if (transform.format) claims.format = transform.format;
  }
  const path = claims.transformations ? "render/image" : "object";
  sendBody(request.res, 200, { signedURL: `/${path}/sign/${url}?token=${signUrlToken(claims, expiresIn)}` });
}

/** POST /object/sign/{bucket} {expiresIn, paths}: one entry per path, with an error for those the caller cannot see. */
export async function signObjects(request: StorageRequest, bucketId: string): Promise<void> {
  const caller = callerOf(request);
  const body = await readJson(request.req);
  const expiresIn = requireInteger(body, "expiresIn", 1);
  const paths = requireStringArray(body, "paths");
  const visible = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    const { rows } = await tx.query("select name from storage.objects where bucket_id = $1 and name = any($2::text[])", [bucketId, paths]);
    return new Set(rows.map((row: { name: string }) => row.name));
  });
  sendBody(
    request.res,
    200,
    paths.map((path) => {
      if (!visible.has(path)) return { error: "Either the object does not exist or you do not have access to it", path, signedURL: null };
      const url = `${bucketId}/${path}`;
      return { error: null, path, signedURL: `/object/sign/${url}?token=${signUrlToken({ url }, expiresIn)}` };
    }),
  );
}

const sortColumns = new Set(["name", "updated_at", "created_at", "last_accessed_at"]);

/** POST /object/list/{bucket}: the folder listing storage.search gives, as the caller. */
export async function listObjects(request: StorageRequest, bucketId: string): Promise<void> {
  const caller = callerOf(request);
  const body = await readJson(request.req);
  if (body.prefix === undefined) throw errors.validation("body must have required property 'prefix'");
  if (typeof body.prefix !== "string") throw errors.validation("body/prefix must be string");
  const limit = body.limit === undefined ? 100 : requireInteger(body, "limit", 1);
  const offset = body.offset === undefined ? 0 : requireInteger(body, "offset", 0);
  const search = typeof body.search === "string" ? body.search : "";
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = typeof sortBy.column === "string" ? sortBy.column : "name";
  const order = typeof sortBy.order === "string" ? sortBy.order : "asc";
  if (!sortColumns.has(column)) throw errors.validation("body/sortBy/column must be equal to one of the allowed values");
  if (order !== "asc" && order !== "desc") throw errors.validation("body/sortBy/order must be equal to one of the allowed values");
  // storage-api treats the prefix as a folder.
  const prefix = body.prefix.length > 0 && !body.prefix.endsWith("/") ? `${body.prefix}/` : body.prefix;
  const rows = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    const result = await tx.query("select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)", [
      prefix,
      bucketId,
      limit,
      prefix.split("/").length,
      offset,
      search,
      column,
      order,
    ]);
    return result.rows;
  });
  sendBody(request.res, 200, rows);
}

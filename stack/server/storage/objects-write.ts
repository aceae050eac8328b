import { randomUUID } from "node:crypto";
import { serviceCaller } from "./caller.ts";
import { mustFindBucket } from "./bucket-store.ts";
import { type Caller, inTransaction } from "./db.ts";
import { duplicateObject, removeObjectFile } from "./disk.ts";
import { errors } from "./errors.ts";
import { optionalString, readJson, requireString, requireStringArray, sendBody } from "./http.ts";
import { isUuid, mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import { findObject } from "./objects-read.ts";
import { callerOf, type StorageRequest } from "./request.ts";
import { signUrlToken, uploadUrlExpiresIn, verifyUploadToken } from "./signing.ts";
import { canUpload, commitObject, type ObjectWrite, receiveFile, uploadLimit } from "./upload.ts";

/** The columns storage-api's objectSchema lets through in responses. */
const objectFields = "name, bucket_id, owner, owner_id, version, id, updated_at, created_at, last_accessed_at, metadata, user_metadata";

/**
 * The upload pipeline every upload route shares, in storage-api's order: bucket → type and
 * declared size → permission (a trial row, before any byte is read) → bytes to a temporary file
 * within the limits → row and file committed together.
 */
async function storeUpload(request: StorageRequest, caller: Caller, write: ObjectWrite): Promise<{ id: string }> {
  mustBeValidKey(write.name);
  const bucket = await mustFindBucket(request.server.adminPool, write.bucketId);
  const pool = request.server.authenticatorPool;
  const received = await receiveFile(request.req, bucket, write.name, uploadLimit(bucket, request.globalLimit, write.name), (head) =>
    canUpload(pool, caller, write, head),
  );
  try {
    return await commitObject(
      request.server.authenticatorPool,
      caller,
      write,
      { metadata: received.metadata, userMetadata: received.userMetadata },
      async (version) => {
        await received.file.placeAt(write.bucketId, write.name, version);
      },
    );
  } finally {
    await received.file.discard();
  }
}

/** POST /object/{bucket}/{name} (x-upsert) and PUT (always an upsert). */
export async function uploadObject(request: StorageRequest, bucketId: string, name: string, update: boolean): Promise<void> {
  const caller = callerOf(request);
  const upsert = update || request.req.headers["x-upsert"] === "true";
  const { id } = await storeUpload(request, caller, { bucketId, name, owner: caller.owner, upsert });
  sendBody(request.res, 200, { Id: id, Key: `${bucketId}/${name}` });
}

/** POST /object/upload/sign/{bucket}/{name}: a token to upload there later, if the caller may. */
export async function signUpload(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = callerOf(request);
  mustBeValidKey(name);
  const upsert = request.req.headers["x-upsert"] === "true";
  await canUpload(request.server.authenticatorPool, caller, { bucketId, name, owner: caller.owner, upsert });
  const url = `${bucketId}/${name}`;
  const token = signUrlToken({ owner: caller.owner, url, upsert }, uploadUrlExpiresIn);
  sendBody(request.res, 200, { url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** PUT /object/upload/sign/{bucket}/{name}?token=…: the token's owner uploads, as Storage itself. */
export async function uploadToSignedUrl(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const { owner, upsert } = verifyUploadToken(request.url.searchParams.get("token"), `${bucketId}/${name}`);
  await storeUpload(request, serviceCaller, { bucketId, name, owner, upsert });
  sendBody(request.res, 200, { Key: `${bucketId}/${name}` });
}

/** DELETE /object/{bucket} {prefixes}: deletes what the caller may delete, returns those rows. */
export async function removeObjects(request: StorageRequest, bucketId: string): Promise<void> {
  const caller = callerOf(request);
  const prefixes = requireStringArray(await readJson(request.req), "prefixes");
  const deleted = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    const { rows } = await tx.query(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${objectFields}`,
      [bucketId, prefixes],
    );
    return rows as { name: string; version: string | null }[];
  });
  await Promise.all(deleted.map((row) => removeObjectFile(bucketId, row.name, row.version)));
  sendBody(request.res, 200, deleted);
}

/** DELETE /object/{bucket}/{name}. */
export async function removeObject(request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = callerOf(request);
  mustBeValidKey(name);
  const version = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
    await tx.actAs("service");
    const current = await tx.query("select version from storage.objects where bucket_id = $1 and name = $2 for update", [bucketId, name]);
    if (!current.rows[0]) throw errors.noSuchKey();
    await tx.actAs("caller");
    const { rows } = await tx.query("delete from storage.objects where bucket_id = $1 and name = $2 returning version", [bucketId, name]);
    if (!rows[0]) throw errors.noSuchKey();
    return rows[0].version as string | null;
  });
  await removeObjectFile(bucketId, name, version);
  sendBody(request.res, 200, { message: "Successfully deleted" });
}

interface Transfer {
  bucketId: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
  body: Record<string, unknown>;
}

async function readTransfer(request: StorageRequest): Promise<Transfer> {
  const body = await readJson(request.req);
  const bucketId = requireString(body, "bucketId");
  const sourceKey = requireString(body, "sourceKey");
  const destinationKey = requireString(body, "destinationKey");
  const destinationBucket = optionalString(body, "destinationBucket") || bucketId;
  mustBeValidBucketName(bucketId);
  mustBeValidBucketName(destinationBucket);
  mustBeValidKey(sourceKey);
  mustBeValidKey(destinationKey);
  return { bucketId, sourceKey, destinationBucket, destinationKey, body };
}

/** POST /object/move: renames the row as the caller (RLS checks old and new), bytes follow. */
export async function moveObject(request: StorageRequest): Promise<void> {
  const caller = callerOf(request);
  const move = await readTransfer(request);
  const newVersion = randomUUID();
  let linked = false;
  try {
    const moved = await inTransaction(request.server.authenticatorPool, caller, async (tx) => {
      const { rows } = await tx.query("select id, version from storage.objects where bucket_id = $1 and name = $2", [
        move.bucketId,
        move.sourceKey,
      ]);
      const source = rows[0] as { id: string; version: string } | undefined;
      if (!source) throw errors.noSuchKey();
      if (move.bucketId === move.destinationBucket && move.sourceKey === move.destinationKey)
        return { id: source.id, oldVersion: undefined };
      await duplicateObject(
        { bucket: move.bucketId, name: move.sourceKey, version: source.version },
        { bucket: move.destinationBucket, name: move.destinationKey, version: newVersion },
      );
      linked = true;
      const updated = await tx.query(
        `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6, owner_id = $7, updated_at = now(),
           metadata = coalesce(metadata, '{}'::jsonb) || jsonb_build_object('lastModified', $8::text)
         where bucket_id = $1 and name = $2`,
        [
          move.bucketId,
          move.sourceKey,
          move.destinationKey,
          move.destinationBucket,
          newVersion,
          isUuid(caller.owner) ? caller.owner : null,
          caller.owner ?? null,
          new Date().toISOString(),
        ],
      );
      if (updated.rowCount === 0) throw errors.noSuchKey();
      return { id: source.id, oldVersion: source.version };
    });
    if (moved.oldVersion) await removeObjectFile(move.bucketId, move.sourceKey, moved.oldVersion);
    sendBody(request.res, 200, { message: "Successfully moved", Id: moved.id, Key: move.destinationKey });
  } catch (error) {
    if (linked) await removeObjectFile(move.destinationBucket, move.destinationKey, newVersion);
    throw error;
  }
}

/** POST /object/copy: a new object with the source's bytes, written as an upload of the caller's. */
export async function copyObject(request: StorageRequest): Promise<void> {
  const caller = callerOf(request);
  const copy = await readTransfer(request);
  const upsert = request.req.headers["x-upsert"] === "true";
  const source = await findObject(request, caller, copy.bucketId, copy.sourceKey);
  const copyMetadata = copy.body.copyMetadata !== false;
  const overrides = copy.body.metadata && typeof copy.body.metadata === "object" ? (copy.body.metadata as Record<string, unknown>) : {};
  const metadataHeader = request.req.headers["x-metadata"];
  let userMetadata: unknown = source.user_metadata;
  if (!copyMetadata) {
    try {
      userMetadata = typeof metadataHeader === "string" ? JSON.parse(Buffer.from(metadataHeader, "base64").toString("utf8")) : null;
    } catch {
      userMetadata = null;
    }
  }
  const metadata = { ...(source.metadata ?? {}), ...(copyMetadata ? {} : overrides), lastModified: new Date().toISOString() };
  const write: ObjectWrite = { bucketId: copy.destinationBucket, name: copy.destinationKey, owner: caller.owner, upsert };
  await mustFindBucket(request.server.adminPool, copy.destinationBucket);
  await canUpload(request.server.authenticatorPool, caller, write);
  const { id } = await commitObject(request.server.authenticatorPool, caller, write, { metadata, userMetadata }, async (version) => {
    if (!source.version) throw errors.noSuchKey();
    await duplicateObject(
      { bucket: copy.bucketId, name: copy.sourceKey, version: source.version },
      { bucket: copy.destinationBucket, name: copy.destinationKey, version },
    );
  });
  const row = await inTransaction(request.server.authenticatorPool, serviceCaller, async (tx) => {
    const { rows } = await tx.query(`select ${objectFields} from storage.objects where id = $1`, [id]);
    return rows[0] as Record<string, unknown>;
  });
  sendBody(request.res, 200, { Id: id, Key: `${copy.destinationBucket}/${copy.destinationKey}`, ...row });
}

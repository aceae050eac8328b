import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type pg from "pg";
import type { Bucket } from "./bucket-store.ts";
import { type Caller, inTransaction, testPermission, type Tx } from "./db.ts";
import { IncomingFile, removeObjectFile } from "./disk.ts";
import { errors, StorageError } from "./errors.ts";
import { boundaryOf, MultipartError, readMultipart } from "./multipart.ts";
import { isEmptyFolder, isUuid, mustBeAllowedMimeType } from "./names.ts";

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/** What is known of an upload before its bytes are read: what canUpload's trial row carries. */
export interface UploadHead {
  mimeType: string;
  contentLength?: number;
  userMetadata?: Record<string, unknown>;
}

interface ReceivedFile {
  file: IncomingFile;
  metadata: ObjectMetadata;
  userMetadata?: Record<string, unknown>;
}

function parseUserMetadata(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes an upload may carry: the bucket's limit under the global one (0 for folder placeholders). */
export function uploadLimit(bucket: Bucket, globalLimit: number, name: string): number {
  if (isEmptyFolder(name)) return 0;
  return bucket.file_size_limit === null ? globalLimit : Math.min(bucket.file_size_limit, globalLimit);
}

/**
 * Streams the request's file — a multipart form's first file part, or else the raw body — into a
 * temporary file, refusing a disallowed type before any byte is written and stopping as soon as
 * the size limit is passed. On any failure (including the client going away) the temporary file
 * is deleted before the error propagates.
 */
export async function receiveFile(
  req: IncomingMessage,
  bucket: Bucket,
  name: string,
  limit: number,
  beforeBody: (head: UploadHead) => Promise<void>,
): Promise<ReceivedFile> {
  const file = new IncomingFile();
  const contentType = String(req.headers["content-type"] ?? "");
  const checkType = (mimeType: string) => {
    if (!isEmptyFolder(name)) mustBeAllowedMimeType(mimeType, bucket.allowed_mime_types);
  };
  const take = async (chunk: Buffer) => {
    if (file.size + chunk.length > limit) throw errors.entityTooLarge();
    await file.write(chunk);
  };
  // Refusing a file must not destroy the request: its answer still has to reach the client.
  const body = req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
  const declared = Number(req.headers["content-length"]);
  const declaredLength = req.headers["content-length"] !== undefined && Number.isFinite(declared) ? declared : undefined;
  try {
    let mimeType: string;
    let cacheControl: string;
    let userMetadata: Record<string, unknown> | undefined;
    if (contentType.toLowerCase().startsWith("multipart/form-data")) {
      const boundary = boundaryOf(contentType);
      if (!boundary) throw errors.noContent("Multipart: Boundary not found");
      let head: { mimeType: string; cacheControl: string; userMetadata?: Record<string, unknown> } | undefined;
      const form = await readMultipart(body, boundary, {
        onFileStart: async (part, fields) => {
          const metadataText = fields.metadata ?? fields.userMetadata;
          if (metadataText && Buffer.byteLength(metadataText) > 1024 * 1024) throw errors.entityTooLarge("user_metadata");
          head = {
            mimeType: fields.contentType || part.contentType,
            cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : "no-cache",
            userMetadata: parseUserMetadata(metadataText),
          };
          checkType(head.mimeType);
          await beforeBody({ mimeType: head.mimeType, contentLength: declaredLength, userMetadata: head.userMetadata });
        },
        onFileData: take,
      }).catch((error: unknown) => {
        if (error instanceof MultipartError) throw errors.noContent(error.message);
        throw error;
      });
      if (!form.sawFile || !head) throw errors.noContent();
      ({ mimeType, cacheControl, userMetadata } = head);
    } else {
      mimeType = contentType || "application/octet-stream";
      cacheControl = String(req.headers["cache-control"] ?? "no-cache");
      const metadataHeader = req.headers["x-metadata"];
      if (typeof metadataHeader === "string") userMetadata = parseUserMetadata(Buffer.from(metadataHeader, "base64").toString("utf8"));
      checkType(mimeType);
      if (declaredLength !== undefined && declaredLength > limit) throw errors.entityTooLarge();
      await beforeBody({ mimeType, contentLength: declaredLength, userMetadata });
      for await (const chunk of body) await take(chunk);
    }
    const { size, eTag } = await file.close();
    const metadata: ObjectMetadata = {
      eTag,
      size,
      mimetype: mimeType,
      cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: size,
      httpStatusCode: 200,
    };
    // storage-api stores `{...userMetadata}`: an upload without metadata has `{}`, never null.
    return { file, metadata, userMetadata: { ...userMetadata } };
  } catch (error) {
    await file.discard();
    throw error;
  }
}

export interface ObjectWrite {
  bucketId: string;
  name: string;
  owner?: string;
  upsert: boolean;
}

const insertObject = `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
  values ($1, $2, $3, $4, $5, $6, $7, $8)`;
const upsertObject = `${insertObject}
  on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
    version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()
  returning id`;

/** Writes the object's row as the caller (RLS decides); returns the row's id. */
async function writeObjectRow(
  tx: Tx,
  write: ObjectWrite,
  values: { version: string; metadata?: unknown; userMetadata?: unknown },
): Promise<string> {
  const id = randomUUID();
  const params = [
    id,
    write.bucketId,
    write.name,
    isUuid(write.owner) ? write.owner : null,
    write.owner ?? null,
    values.metadata ?? null,
    values.userMetadata ?? null,
    values.version,
  ];
  try {
    if (!write.upsert) {
      await tx.query(insertObject, params);
      return id;
    }
    const { rows } = await tx.query(upsertObject, params);
    return String(rows[0].id);
  } catch (error) {
    if ((error as { code?: string }).code === "23505") throw errors.keyAlreadyExists();
    throw error;
  }
}

/**
 * storage-api's `canUpload`: the row the upload would write (with the type, declared length and
 * user metadata, so policies may look at them), tried as the caller and rolled back.
 */
export async function canUpload(pool: pg.Pool, caller: Caller, write: ObjectWrite, head?: UploadHead): Promise<void> {
  const metadata = head
    ? { mimetype: head.mimeType, ...(head.contentLength === undefined ? {} : { contentLength: head.contentLength }) }
    : undefined;
  await testPermission(pool, caller, (tx) => writeObjectRow(tx, write, { version: "1", metadata, userMetadata: head?.userMetadata }));
}

/**
 * Records a received file: in one transaction, locks any current row (as Storage, to learn the
 * version being replaced), writes the row as the caller, and moves the bytes into place before the
 * commit. If anything fails the new bytes are deleted; after the commit the replaced bytes are.
 */
export async function commitObject(
  pool: pg.Pool,
  caller: Caller,
  write: ObjectWrite,
  values: { metadata: unknown; userMetadata?: unknown },
  place: (version: string) => Promise<void>,
): Promise<{ id: string; version: string }> {
  const version = randomUUID();
  let placed = false;
  let previous: string | undefined;
  try {
    const id = await inTransaction(pool, caller, async (tx) => {
      await tx.actAs("service");
      // Serialises concurrent writes of one name, so each learns the version it really replaces.
      await tx.query("select pg_advisory_xact_lock(hashtext($1 || '/' || $2))", [write.bucketId, write.name]);
      const current = await tx.query("select version from storage.objects where bucket_id = $1 and name = $2 for update", [
        write.bucketId,
        write.name,
      ]);
      previous = current.rows[0]?.version ?? undefined;
      await tx.actAs("caller");
      const rowId = await writeObjectRow(tx, write, { version, ...values });
      await place(version);
      placed = true;
      return rowId;
    });
    if (previous && previous !== version) await removeObjectFile(write.bucketId, write.name, previous);
    return { id, version };
  } catch (error) {
    if (placed) await removeObjectFile(write.bucketId, write.name, version);
    if (error instanceof StorageError) throw error;
    console.error(`[storage] storing ${write.bucketId}/${write.name}:`, error);
    throw errors.internal();
  }
}

import type { ServerResponse } from "node:http";

/**
 * Storage API errors in the shape storage-api renders them: the HTTP status is 400 for every
 * client error (500 for server errors), and the body carries the real status as a string in
 * `statusCode`, a machine `code`, the legacy `error` and a `message`.
 */
export class StorageError extends Error {
  readonly status: number;
  readonly statusCode: string;
  readonly code: string;
  readonly error: string;

  constructor(options: { statusCode: number; code: string; error?: string; message: string; status?: number }) {
    super(options.message);
    this.statusCode = String(options.statusCode);
    this.code = options.code;
    this.error = options.error ?? options.code;
    this.status = options.status ?? (options.statusCode >= 500 ? 500 : 400);
  }

  body() {
    return { statusCode: this.statusCode, code: this.code, error: this.error, message: this.message };
  }
}

export const errors = {
  noSuchBucket: () => new StorageError({ statusCode: 404, code: "NoSuchBucket", error: "Bucket not found", message: "Bucket not found" }),
  noSuchKey: () => new StorageError({ statusCode: 404, code: "NoSuchKey", error: "not_found", message: "Object not found" }),
  invalidKey: (key: string) => new StorageError({ statusCode: 400, code: "InvalidKey", message: `Invalid key: ${key}` }),
  invalidBucketName: () =>
    new StorageError({ statusCode: 400, code: "InvalidBucketName", error: "Invalid Input", message: "Bucket name invalid" }),
  keyAlreadyExists: () =>
    new StorageError({ statusCode: 409, code: "KeyAlreadyExists", error: "Duplicate", message: "The resource already exists" }),
  resourceAlreadyExists: () =>
    new StorageError({ statusCode: 409, code: "ResourceAlreadyExists", error: "Duplicate", message: "The resource already exists" }),
  bucketAlreadyExists: () =>
    new StorageError({ statusCode: 409, code: "BucketAlreadyExists", error: "Duplicate", message: "The resource already exists" }),
  bucketNotEmpty: () =>
    new StorageError({ statusCode: 409, code: "InvalidRequest", message: "The bucket you tried to delete is not empty" }),
  unableToEmptyBucket: (message: string) => new StorageError({ statusCode: 409, code: "InvalidRequest", message }),
  featureNotEnabled: (message: string) =>
    new StorageError({ statusCode: 400, code: "FeatureNotEnabled", error: "FeatureNotEnabled", message }),
  accessDenied: (message: string) => new StorageError({ statusCode: 403, code: "AccessDenied", error: "Unauthorized", message }),
  entityTooLarge: (entity = "object") =>
    new StorageError({
      statusCode: 413,
      code: "EntityTooLarge",
      error: "Payload too large",
      message: `The ${entity} exceeded the maximum allowed size`,
    }),
  invalidMimeType: (mimeType: string) =>
    new StorageError({
      statusCode: 415,
      code: "InvalidMimeType",
      error: "invalid_mime_type",
      message: `mime type ${mimeType} is not supported`,
    }),
  invalidJwt: (message: string) => new StorageError({ statusCode: 400, code: "InvalidJWT", message }),
  invalidSignature: () => new StorageError({ statusCode: 400, code: "InvalidSignature", message: "Invalid signature" }),
  expiredSignature: () => new StorageError({ statusCode: 400, code: "ExpiredToken", message: "The provided token has expired." }),
  noContent: (message = "No content provided") => new StorageError({ statusCode: 400, code: "InvalidRequest", message }),
  invalidRange: () =>
    new StorageError({ statusCode: 400, code: "InvalidRange", error: "invalid_range", message: "invalid range provided" }),
  invalidFileSizeLimit: () =>
    new StorageError({ statusCode: 400, code: "InvalidRequest", message: "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B" }),
  relatedResourceNotFound: () =>
    new StorageError({ statusCode: 404, code: "InvalidRequest", message: "The related resource does not exist" }),
  /** What Fastify answers when a body or query fails its JSON schema. */
  validation: (message: string) => new StorageError({ statusCode: 400, code: "InvalidRequest", error: "Bad Request", message }),
  notFoundRoute: (method: string, path: string) =>
    new StorageError({ statusCode: 404, code: "NotFound", error: "Not Found", message: `Route ${method}:${path} not found`, status: 404 }),
  /** storage-api's not-found handler for its REST routes (the raw URL, query included). */
  routeNotFound: (method: string, rawUrl: string) =>
    new StorageError({
      statusCode: 404,
      code: "InvalidRequest",
      error: "Not Found",
      message: `Route ${method}:${rawUrl} not found`,
      status: 404,
    }),
  internal: (message = "Internal server error") => new StorageError({ statusCode: 500, code: "InternalError", message }),
};

interface PgError {
  code?: string;
  message?: string;
}

/** Maps a Postgres error to Storage's rendering of it, as storage-api's DBError does. */
export function fromPgError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const pg = (error ?? {}) as PgError;
  switch (pg.code) {
    case "42501":
      return errors.accessDenied(
        pg.message?.includes("row-level security") ? "new row violates row-level security policy" : (pg.message ?? "Access denied"),
      );
    case "23505":
      return errors.resourceAlreadyExists();
    case "23503":
      return errors.relatedResourceNotFound();
    case "55P03":
      return new StorageError({ statusCode: 423, code: "ResourceLocked", message: "The resource is locked" });
    case "57014":
      return new StorageError({
        statusCode: 544,
        code: "DatabaseTimeout",
        message: "The connection to the database timed out",
        status: 544,
      });
    default:
      if (pg.code) return new StorageError({ statusCode: 500, code: "DatabaseError", message: `database error, code: ${pg.code}` });
      return errors.internal();
  }
}

export function sendStorageError(res: ServerResponse, error: StorageError, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(error.body());
  res.writeHead(error.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

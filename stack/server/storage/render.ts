import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { openObject } from "./disk.ts";
import { errors } from "./errors.ts";
import type { ObjectMetadata } from "./upload.ts";

export interface StoredObject {
  id: string;
  bucket_id: string;
  name: string;
  version: string | null;
  metadata: Partial<ObjectMetadata> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
}

export interface RenderOptions {
  /** The `download` query: present (even empty) asks for an attachment. */
  download?: string;
  /** Signed URLs answer with Expires (the token's expiry) instead of Cache-Control. */
  expires?: string;
  headOnly?: boolean;
}

/** storage-api never serves text/html from a storage domain as HTML. */
function normalizeContentType(type: string | undefined): string {
  if (!type) return "application/octet-stream";
  return type.includes("text/html") ? "text/plain" : type;
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | "invalid" | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "invalid";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "invalid";
  return { start, end };
}

export function contentDisposition(download: string): string {
  if (download === "") return "attachment;";
  const encoded = encodeURIComponent(download);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded};`;
}

/** Answers with an object's bytes (or only its headers), honouring Range and If-None-Match. */
export async function renderObject(
  req: IncomingMessage,
  res: ServerResponse,
  object: StoredObject,
  options: RenderOptions = {},
): Promise<void> {
  const metadata = object.metadata ?? {};
  const size = Number(metadata.size ?? metadata.contentLength ?? 0);
  const headers: Record<string, string> = { "Accept-Ranges": "bytes", "Content-Type": normalizeContentType(metadata.mimetype) };
  if (metadata.eTag) headers.ETag = metadata.eTag;
  if (metadata.lastModified) headers["Last-Modified"] = new Date(metadata.lastModified).toUTCString();
  if (options.expires) headers.Expires = options.expires;
  else if (metadata.cacheControl) headers["Cache-Control"] = metadata.cacheControl;
  if (options.download !== undefined) headers["Content-Disposition"] = contentDisposition(options.download);

  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch && metadata.eTag && ifNoneMatch.split(",").some((tag) => tag.trim() === metadata.eTag || tag.trim() === "*")) {
    const notModified = { ...headers };
    delete notModified["Content-Type"];
    res.writeHead(304, notModified);
    res.end();
    return;
  }

  const range = req.method === "GET" ? parseRange(req.headers.range, size) : undefined;
  if (range === "invalid") throw errors.invalidRange();
  if (!object.version) throw errors.noSuchKey();
  if (options.headOnly || req.method === "HEAD") {
    res.writeHead(200, { ...headers, "Content-Length": String(size) });
    res.end();
    return;
  }
  const stream = await openObject(object.bucket_id, object.name, object.version, range);
  if (range) {
    res.writeHead(206, {
      ...headers,
      "Content-Length": String(range.end - range.start + 1),
      "Content-Range": `bytes ${range.start}-${range.end}/${size}`,
    });
  } else {
    res.writeHead(200, { ...headers, "Content-Length": String(size) });
  }
  await pipeline(stream, res).catch(() => {
    stream.destroy();
    res.destroy();
  });
}

/** GET /object/info/…: the object's description as JSON (storage-api's InfoRenderer). */
export function objectInfo(object: StoredObject) {
  const metadata = object.metadata ?? {};
  return {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: metadata.size ?? null,
    content_type: metadata.mimetype ?? null,
    cache_control: metadata.cacheControl ?? null,
    etag: metadata.eTag ?? null,
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  };
}

export function infoHeaders(object: StoredObject): Record<string, string> {
  const metadata = object.metadata ?? {};
  const headers: Record<string, string> = {};
  if (metadata.eTag) headers.ETag = metadata.eTag;
  if (metadata.lastModified) headers["Last-Modified"] = new Date(metadata.lastModified).toUTCString();
  if (metadata.cacheControl) headers["Cache-Control"] = metadata.cacheControl;
  return headers;
}

import * as buckets from "./buckets-api.ts";
import { errors } from "./errors.ts";
import * as read from "./objects-read.ts";
import * as write from "./objects-write.ts";
import { listObjectsV2 } from "./list-v2.ts";
import type { StorageRequest } from "./request.ts";

type Handler = (request: StorageRequest) => Promise<void>;

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidKey(raw);
  }
}

/** `{bucket}/{name…}` from raw path segments; undefined when the name is missing. */
function target(segments: string[]): { bucket: string; name: string } | undefined {
  if (segments.length < 2 || !segments[0]) return undefined;
  return { bucket: decode(segments[0]), name: decode(segments.slice(1).join("/")) };
}

function objectRoute(method: string, segments: string[]): Handler | undefined {
  const [first, second] = segments;
  if (method === "POST" && segments.length === 1 && first === "move") return write.moveObject;
  if (method === "POST" && segments.length === 1 && first === "copy") return write.copyObject;
  if (method === "POST" && first === "list" && segments.length === 2) return (r) => read.listObjects(r, decode(second));
  if (method === "POST" && first === "list-v2" && segments.length === 2) return (r) => listObjectsV2(r, decode(second));
  if (first === "sign") {
    if (method === "POST" && segments.length === 2) return (r) => read.signObjects(r, decode(second));
    const t = target(segments.slice(1));
    if (t && method === "POST") return (r) => read.signObject(r, t.bucket, t.name);
    if (t && method === "GET") return (r) => read.serveSigned(r, t.bucket, t.name);
  }
  if (first === "upload" && second === "sign") {
    const t = target(segments.slice(2));
    if (t && method === "POST") return (r) => write.signUpload(r, t.bucket, t.name);
    if (t && method === "PUT") return (r) => write.uploadToSignedUrl(r, t.bucket, t.name);
  }
  if (first === "info" && method === "GET") {
    const scoped = second === "public" || second === "authenticated";
    const t = target(segments.slice(scoped ? 2 : 1));
    if (t) return (r) => read.serveInfo(r, t.bucket, t.name, second === "public");
  }
  if ((first === "public" || first === "authenticated") && (method === "GET" || method === "HEAD")) {
    const t = target(segments.slice(1));
    if (t) return (r) => read.serveObject(r, t.bucket, t.name, first === "public");
  }
  if (method === "DELETE" && segments.length === 1 && first) return (r) => write.removeObjects(r, decode(first));
  const t = target(segments);
  if (!t) return undefined;
  switch (method) {
    case "GET":
    case "HEAD":
      return (r) => read.serveObject(r, t.bucket, t.name, false);
    case "POST":
      return (r) => write.uploadObject(r, t.bucket, t.name, false);
    case "PUT":
      return (r) => write.uploadObject(r, t.bucket, t.name, true);
    case "DELETE":
      return (r) => write.removeObject(r, t.bucket, t.name);
    default:
      return undefined;
  }
}

function bucketRoute(method: string, segments: string[]): Handler | undefined {
  if (segments.length === 0 || (segments.length === 1 && segments[0] === "")) {
    if (method === "GET") return buckets.listBuckets;
    if (method === "POST") return buckets.createBucket;
    return undefined;
  }
  const id = decode(segments[0]);
  if (segments.length === 1) {
    if (method === "GET") return (r) => buckets.getBucket(r, id);
    if (method === "PUT") return (r) => buckets.updateBucket(r, id);
    if (method === "DELETE") return (r) => buckets.deleteBucket(r, id);
  }
  if (segments.length === 2 && segments[1] === "empty" && method === "POST") return (r) => buckets.emptyBucket(r, id);
  return undefined;
}

/** /render/image/{public|authenticated|sign}/{bucket}/{name…}: transformed images (index.ts answers "no such route" when the feature is off). */
function renderRoute(method: string, segments: string[]): Handler | undefined {
  if (segments[0] !== "image" || (method !== "GET" && method !== "HEAD")) return undefined;
  const t = target(segments.slice(2));
  if (!t) return undefined;
  if (segments[1] === "sign") return (r) => read.serveSignedImage(r, t.bucket, t.name);
  if (segments[1] === "public" || segments[1] === "authenticated")
    return (r) => read.serveImage(r, t.bucket, t.name, segments[1] === "public");
  return undefined;
}

/** Picks the handler for a path below /storage/v1, the way storage-api's routes are laid out. */
export function route(method: string, pathname: string): Handler | undefined {
  const [area, ...segments] = pathname.replace(/^\/+/, "").split("/");
  if (area === "object") return objectRoute(method, segments);
  if (area === "bucket") return bucketRoute(method, segments);
  if (area === "render") return renderRoute(method, segments);
  return undefined;
}

/** A `.` or `..` segment in the raw request path, which URL parsing would silently resolve away. */
export function hasDotSegment(rawUrl: string): boolean {
  const rawPath = rawUrl.split("?")[0];
  return rawPath.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

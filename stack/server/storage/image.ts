import type { IncomingMessage, ServerResponse } from "node:http";
import sharp, { type Metadata, type Sharp } from "sharp";
import { readObjectFile } from "./disk.ts";
import { StorageError, errors } from "./errors.ts";
import { contentDisposition, type StoredObject } from "./render.ts";
import { defaultQuality, sizeLimits, sourceLimits, type TransformOptions } from "./transform.ts";

/**
 * Image transformation as Supabase Storage serves it (storage-api in front of imgproxy), done in
 * process with sharp: resize (cover crops to the box, contain fits inside it, fill stretches to it;
 * never enlarged), quality, and the output format — WebP or AVIF when asked, the source's format for
 * `origin`, and otherwise WebP for a client whose Accept header takes it (imgproxy's WebP detection).
 */

type OutputFormat = "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff";

const mimeTypes: Record<OutputFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  tiff: "image/tiff",
};

/** What a source read as `format` is written as when its own format is kept. */
function originFormat(format: string | undefined): OutputFormat {
  switch (format) {
    case "jpeg":
    case "png":
    case "webp":
    case "gif":
    case "tiff":
      return format;
    case "heif":
      return "avif";
    default:
      // SVG and the rest are drawn to PNG.
      return "png";
  }
}

/** imgproxy's names for the resize modes, as X-Transformations lists them. */
const resizingTypes = { cover: "fill", contain: "fit", fill: "force" } as const;

function headerSegments(options: TransformOptions, quality: number | undefined, format: string | undefined): string[] {
  const clamp = (value: number) => Math.min(Math.max(value, sizeLimits.min), sizeLimits.max);
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height)}`);
  if (options.width) segments.push(`width:${clamp(options.width)}`);
  if (options.width || options.height) segments.push(`resizing_type:${resizingTypes[options.resize ?? "cover"]}`);
  if (quality) segments.push(`quality:${quality}`);
  if (format && format !== "origin") segments.push(`format:${format}`);
  return segments;
}

const sourceError = (message: string) => new StorageError({ statusCode: 400, code: "InvalidRequest", message });
const unsupported = () => sourceError("The source image is invalid or unsupported for rendering");

interface Rendered {
  body: Buffer;
  mimetype: string;
}

/** Recently rendered variants (an avatar is drawn many times a page), bounded by bytes. */
const cache = new Map<string, Rendered>();
const cacheBudget = 64 * 1024 * 1024;
let cachedBytes = 0;

function remember(key: string, value: Rendered): void {
  if (value.body.length > cacheBudget / 8) return;
  cache.set(key, value);
  cachedBytes += value.body.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= cacheBudget) break;
    cache.delete(oldKey);
    cachedBytes -= old.body.length;
  }
}

function recall(key: string): Rendered | undefined {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

async function transform(source: Buffer, options: TransformOptions, wanted: "origin" | "webp" | "avif"): Promise<Rendered> {
  let image: Sharp;
  let metadata: Metadata;
  try {
    image = sharp(source, { limitInputPixels: false, failOn: "error" });
    metadata = await image.metadata();
  } catch {
    throw unsupported();
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > sourceLimits.pixels)
    throw sourceError("The source image resolution is too large to process");
  const format: OutputFormat = wanted === "origin" ? originFormat(metadata.format) : wanted;
  const quality = options.quality ?? defaultQuality;
  // Camera photos are turned upright by their EXIF orientation, as imgproxy does.
  let pipeline = image.rotate();
  if (options.width || options.height) {
    const clamp = (value: number | undefined) => (value ? Math.min(Math.max(value, sizeLimits.min), sizeLimits.max) : undefined);
    pipeline = pipeline.resize({
      width: clamp(options.width),
      height: clamp(options.height),
      fit: options.resize === "contain" ? "inside" : options.resize === "fill" ? "fill" : "cover",
      withoutEnlargement: true,
    });
  }
  switch (format) {
    case "jpeg":
      pipeline = pipeline.jpeg({ quality, mozjpeg: true });
      break;
    case "webp":
      pipeline = pipeline.webp({ quality });
      break;
    case "avif":
      pipeline = pipeline.avif({ quality });
      break;
    case "png":
      pipeline = pipeline.png();
      break;
    case "gif":
      pipeline = pipeline.gif();
      break;
    case "tiff":
      pipeline = pipeline.tiff({ quality });
      break;
  }
  try {
    return { body: await pipeline.toBuffer(), mimetype: mimeTypes[format] };
  } catch {
    throw unsupported();
  }
}

export interface ImageRenderOptions {
  transform: TransformOptions;
  download?: string;
  /** Signed URLs answer with Expires (the token's expiry) instead of Cache-Control. */
  expires?: string;
}

/** Answers with a transformed variant of an image object (or only its headers for HEAD). */
export async function renderImage(
  req: IncomingMessage,
  res: ServerResponse,
  object: StoredObject,
  options: ImageRenderOptions,
): Promise<void> {
  const metadata = object.metadata ?? {};
  if (!object.version) throw errors.noSuchKey();
  if (Number(metadata.size ?? 0) > sourceLimits.bytes) throw sourceError("The source image file is too large to process");
  const accept = String(req.headers.accept ?? "");
  const wanted = options.transform.format ?? (/\bimage\/webp\b/i.test(accept) ? "webp" : "origin");

  const headers: Record<string, string> = { "Accept-Ranges": "bytes", "X-Robots-Tag": "none" };
  if (metadata.eTag) headers.ETag = metadata.eTag;
  if (metadata.lastModified) headers["Last-Modified"] = new Date(metadata.lastModified).toUTCString();
  if (options.expires) headers.Expires = options.expires;
  else if (metadata.cacheControl) headers["Cache-Control"] = metadata.cacheControl;
  const segments = headerSegments(options.transform, options.transform.quality, options.transform.format);
  if (segments.length) headers["X-Transformations"] = segments.join(",");
  if (options.download !== undefined) headers["Content-Disposition"] = contentDisposition(options.download);

  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch && metadata.eTag && ifNoneMatch.split(",").some((tag) => tag.trim() === metadata.eTag || tag.trim() === "*")) {
    res.writeHead(304, headers);
    res.end();
    return;
  }

  const key = `${object.bucket_id}/${object.name}#${object.version}|${segments.join(",")}|${wanted}`;
  let rendered = recall(key);
  if (!rendered) {
    rendered = await transform(await readObjectFile(object.bucket_id, object.name, object.version), options.transform, wanted);
    remember(key, rendered);
  }
  res.writeHead(200, { ...headers, "Content-Type": rendered.mimetype, "Content-Length": String(rendered.body.length) });
  res.end(req.method === "HEAD" ? undefined : rendered.body);
}

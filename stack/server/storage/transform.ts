import { errors } from "./errors.ts";

/**
 * Image transformation options, as storage-api takes them: from a /render/image query string, from a
 * sign request's `transform` body, or from the `transformations` claim a signed render URL carries
 * (`height:100,width:200,resize:cover,format:webp,quality:80`).
 */
export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: "cover" | "contain" | "fill";
  format?: "origin" | "avif" | "webp";
  quality?: number;
}

const resizeModes = new Set(["cover", "contain", "fill"]);
const formats = new Set(["origin", "avif", "webp"]);
const gravities = new Set(["no", "so", "ea", "we", "noea", "nowe", "soea", "sowe", "ce", "sm", "fp"]);

/** storage-api's IMAGE_TRANSFORMATION_LIMIT_MIN_SIZE / _MAX_SIZE defaults: larger sizes are clamped, not refused. */
export const sizeLimits = { min: 1, max: 2000 };
/** What Supabase's image service refuses to read: 25 MB files and 50 megapixel images. */
export const sourceLimits = { bytes: 25_000_000, pixels: 50_000_000 };
export const defaultQuality = 80;

type Where = "querystring" | "body/transform";

function integerField(where: Where, field: string, value: unknown, minimum: number, maximum?: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const number = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) throw errors.validation(`${where}/${field} must be integer`);
  if (number < minimum) throw errors.validation(`${where}/${field} must be >= ${minimum}`);
  if (maximum !== undefined && number > maximum) throw errors.validation(`${where}/${field} must be <= ${maximum}`);
  return number;
}

function enumField<T extends string>(where: Where, field: string, value: unknown, allowed: Set<string>): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !allowed.has(value))
    throw errors.validation(`${where}/${field} must be equal to one of the allowed values`);
  return value as T;
}

/** Checks options as storage-api's JSON schema does (Fastify's messages); `gravity` is accepted and ignored. */
export function parseTransform(source: Record<string, unknown>, where: Where): TransformOptions {
  enumField(where, "gravity", source.gravity, gravities);
  return {
    height: integerField(where, "height", source.height, 0),
    width: integerField(where, "width", source.width, 0),
    resize: enumField(where, "resize", source.resize, resizeModes),
    format: enumField(where, "format", source.format, formats),
    quality: integerField(where, "quality", source.quality, 20, 100),
  };
}

export function transformFromQuery(params: URLSearchParams): TransformOptions {
  const source: Record<string, unknown> = {};
  for (const key of ["width", "height", "resize", "format", "quality", "gravity"]) {
    const value = params.get(key);
    if (value !== null) source[key] = value;
  }
  return parseTransform(source, "querystring");
}

const clamp = (value: number) => Math.min(Math.max(value, sizeLimits.min), sizeLimits.max);

/**
 * The segments storage-api lists in X-Transformations and signs into a token: sizes clamped, a
 * resize mode only with a size, the format unless it is `origin`. Zero sizes count as absent.
 */
export function transformSegments(options: TransformOptions): string[] {
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height)}`);
  if (options.width) segments.push(`width:${clamp(options.width)}`);
  if (options.width || options.height) segments.push(`resize:${options.resize ?? "cover"}`);
  if (options.quality) segments.push(`quality:${options.quality}`);
  if (options.format && options.format !== "origin") segments.push(`format:${options.format}`);
  return segments;
}

/** Reads a signed token's `transformations` claim back (unknown or empty parts are skipped, as storage-api does). */
export function transformFromClaim(transformations: unknown, format: unknown): TransformOptions {
  const options: TransformOptions = {};
  if (typeof transformations === "string") {
    for (const part of transformations.split(",")) {
      const [name, value] = part.split(":");
      if (!value) continue;
      if (name === "width" || name === "height" || name === "quality") {
        const number = Number.parseInt(value, 10);
        if (Number.isFinite(number)) options[name] = number;
      } else if (name === "resize" && resizeModes.has(value)) options.resize = value as TransformOptions["resize"];
      else if (name === "format" && formats.has(value)) options.format = value as TransformOptions["format"];
    }
  }
  // A URL signed for the original format keeps it, whatever the browser accepts.
  if (format === "origin" && !options.format) options.format = "origin";
  return options;
}

import { errors } from "./errors.ts";

// storage-api's S3-safe character sets; a bucket name may not contain "/".
const keyPattern = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;
const bucketPattern = /^(\w|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/;

/**
 * Object names are S3 keys, but the stack keeps bytes on a file system, so on top of storage-api's
 * character rule it refuses `.`/`..` segments and empty segments (`a//b`, a leading `/`): a name
 * can never address a path outside its bucket's folder.
 */
export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (!key || key.length > 1024 || !keyPattern.test(key)) throw errors.invalidKey(key ?? "");
  const segments = key.split("/");
  const last = segments.length - 1;
  if (
    segments.some(
      (segment, index) => segment === "." || segment === ".." || (segment === "" && index !== last) || Buffer.byteLength(segment) > 200,
    )
  ) {
    throw errors.invalidKey(key);
  }
}

export function mustBeValidBucketName(name: string | undefined): asserts name is string {
  if (!name || name.length > 100 || !bucketPattern.test(name) || name === "." || name === "..") throw errors.invalidBucketName();
}

/** storage-api keeps `.emptyFolderPlaceholder` objects (the dashboard's folders) at 0 bytes. */
export function isEmptyFolder(name: string): boolean {
  return name.endsWith(".emptyFolderPlaceholder");
}

export function isUuid(value: string | undefined): boolean {
  return !!value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** Sizes as config.toml and the bucket API write them: bytes, or a number with a unit. */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value);
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = match[2].toLowerCase().replace(/i?b$/, "");
  // The Supabase CLI reads sizes with docker/go-units' RAMInBytes: KB, MB and MiB are all powers of 1024.
  const power = { "": 0, k: 1, m: 2, g: 3, t: 4 }[unit];
  if (power === undefined) return undefined;
  return Math.floor(Number(match[1]) * 1024 ** power);
}

/** The bucket API's size strings (storage-api's parseFileSizeToBytes: decimal units). */
export function parseApiSize(value: number | string): number {
  if (typeof value === "number") return value;
  const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!match) throw errors.invalidFileSizeLimit();
  const amount = Number(Number.parseFloat(match[1]).toPrecision(3));
  const factor = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 }[match[2].toLowerCase() as "gb" | "mb" | "kb" | "b"];
  return amount * factor;
}

/** storage-api's check on a requested mime type against a bucket's allowed list (`type/*` allowed). */
export function mustBeAllowedMimeType(mimeType: string, allowed: string[] | null | undefined): void {
  if (!allowed || allowed.length === 0) return;
  const [type, subtype] = mimeType.split("/");
  if (subtype === undefined) throw errors.invalidMimeType(mimeType);
  for (const entry of allowed) {
    const [allowedType, allowedSubtype] = entry.split("/");
    if (allowedType === type && (allowedSubtype === "*" || allowedSubtype === subtype)) return;
  }
  throw errors.invalidMimeType(mimeType);
}

/** What the bucket API accepts as an allowed mime type. */
export function mustBeValidMimeTypes(types: string[]): void {
  for (const type of types) {
    if (type.length > 1000 || !/^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/.test(type))
      throw errors.invalidMimeType(type);
  }
}

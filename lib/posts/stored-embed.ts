// A post's stored `embed` column, read back: the normalised metadata the `embed` function keeps
// (lib/media/oembed-normalise.ts), never raw HTML. Plain checks rather than a zod schema, because
// this runs in the browser for every live post and zod would join the room page's first load.

/** The metadata shown for a post (as stored; a field that fails its check makes the whole embed null). */
// a type, not an interface: it is written back to the json column as it is
export type StoredEmbed = {
  provider: string;
  provider_name?: string | null;
  title?: string | null;
  author?: string | null;
  /** An https URL. */
  thumbnail_url?: string | null;
  duration?: number | null;
  width?: number | null;
  height?: number | null;
};

type Check = (value: string | number | boolean | object) => boolean;
const textUpTo =
  (limit: number): Check =>
  (value) =>
    typeof value === "string" && value.length <= limit;
const finiteNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);

function isHttpsUrl(value: string | number | boolean | object): boolean {
  if (typeof value !== "string" || value.length > 2048) return false;
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

/** Every field but `provider` may be null or left out; when present it must pass its check. */
const optionalFields: Record<Exclude<keyof StoredEmbed, "provider">, Check> = {
  provider_name: textUpTo(80),
  title: textUpTo(300),
  author: textUpTo(200),
  thumbnail_url: isHttpsUrl,
  duration: finiteNumber,
  width: finiteNumber,
  height: finiteNumber,
};

/** The stored metadata when every field has its type and limit; null otherwise. */
export function readStoredEmbed(value: unknown): StoredEmbed | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const fields = value as Record<string, unknown>;
  if (typeof fields.provider !== "string" || fields.provider.length > 40) return null;
  const embed: Record<string, unknown> = { provider: fields.provider };
  for (const [key, check] of Object.entries(optionalFields)) {
    if (!(key in fields)) continue;
    const field = fields[key];
    if (field !== null && field !== undefined && !check(field)) return null;
    embed[key] = field;
  }
  return embed as unknown as StoredEmbed;
}

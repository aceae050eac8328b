// Turns a provider's oEmbed JSON into the metadata Cuepoint keeps: plain text, an https
// thumbnail, numbers only where they are numbers. Never the provider's `html` (or any other
// field): what a provider sends is data to read, not markup to show. Imports nothing of the app's
// (Deno reads it by relative path).
import type { OembedProvider, OembedProviderKey } from "./oembed-providers.ts";
import { checkMediaUrl } from "./url-rules.ts";

export interface EmbedMetadata {
  provider: OembedProviderKey;
  provider_name: string;
  title: string | null;
  author: string | null;
  thumbnail_url: string | null;
  /** Seconds, when the provider says (Vimeo, Wistia do). */
  duration: number | null;
  width: number | null;
  height: number | null;
}

const embedTextLimits = { title: 300, author: 200 } as const;

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8}|#39);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in entities) return entities[lower];
    const code = lower.startsWith("#x") ? parseInt(lower.slice(2), 16) : lower.startsWith("#") ? parseInt(lower.slice(1), 10) : NaN;
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const tag = /<\/?[a-z!?][^<>]*>?/gi;
// a script's or style's text is not part of any title
const scriptOrStyle = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/**
 * Plain text from a provider's string: tags removed (also ones spelled with entities, which a
 * page would decode back into tags), entities decoded, control characters and runs of spaces
 * collapsed, at most `limit` characters. Null when nothing is left.
 */
export function plainText(value: unknown, limit: number): string | null {
  if (typeof value !== "string") return null;
  let text = value;
  for (let round = 0; round < 3; round++) {
    const next = decodeEntities(text.replace(scriptOrStyle, " ").replace(tag, " "));
    if (next === text) break;
    text = next;
  }
  text = text
    .replace(tag, " ")
    .replace(/[<>]/g, "")
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length > limit) text = `${text.slice(0, limit - 1).trimEnd()}…`;
  return text.length > 0 ? text : null;
}

function positiveNumber(value: unknown, max: number): number | null {
  const number = typeof value === "string" && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number > 0 && number <= max ? number : null;
}

function httpsUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const checked = checkMediaUrl(value);
  return checked.ok ? checked.url.href : null;
}

/** The metadata to keep from an oEmbed answer; null when the answer is not an oEmbed object. */
export function normaliseOembed(provider: OembedProvider, answer: unknown): EmbedMetadata | null {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return null;
  const fields = answer as Record<string, unknown>;
  const width = positiveNumber(fields.width, 100_000);
  const height = positiveNumber(fields.height, 100_000);
  // Vimeo and Wistia say `duration`; Twitch says `video_length` for a recorded video (none for a live channel).
  const duration = positiveNumber(fields.duration ?? fields.video_length, 31 * 24 * 3600);
  return {
    provider: provider.key,
    provider_name: provider.name,
    title: plainText(fields.title, embedTextLimits.title),
    author: plainText(fields.author_name, embedTextLimits.author),
    thumbnail_url: httpsUrl(fields.thumbnail_url),
    duration: duration === null ? null : Math.round(duration * 1000) / 1000,
    width: width === null ? null : Math.round(width),
    height: height === null ? null : Math.round(height),
  };
}

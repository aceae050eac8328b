// The one picture a preview may show: a post's thumbnail from the known providers' image hosts, or
// the room's cover from Storage. Fetched by the server at render time with a short timeout; any
// failure (slow, refused, too big, not an image) gives no picture, never a failed preview.
import { publicConfig } from "@/lib/public-config";

/** The providers' thumbnail hosts (as the oEmbed answers name them); a suffix starting with "." matches subdomains. */
const thumbnailHosts = ["i.ytimg.com", "i.vimeocdn.com", ".sndcdn.com", "i.scdn.co", ".spotifycdn.com", "image.mux.com", ".wistia.com"];

/** `url` when it is an https address on a provider's thumbnail host; null for anything else. */
export function allowedThumbnail(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" || parsed.username || parsed.password || parsed.port) return null;
  const host = parsed.hostname.toLowerCase();
  return thumbnailHosts.some((allowed) => (allowed.startsWith(".") ? host.endsWith(allowed) : host === allowed)) ? parsed.href : null;
}

/** Whether `url` is a file in this project's Storage (a room's cover). */
function isStorageUrl(url: string): boolean {
  try {
    return new URL(url).origin === new URL(publicConfig.supabaseUrl).origin;
  } catch {
    return false;
  }
}

/** The picture types the renderer draws, by their first bytes. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50)
    return "image/webp";
  return null;
}

const maxBytes = 4 * 1024 * 1024;

/**
 * The picture at `url` as a data: URL for the renderer, or null. Only allow-listed thumbnail hosts
 * and this project's Storage are asked; each gets `timeoutMs` in all.
 */
async function fetchPicture(url: string | null, { timeoutMs = 1_500 }: { timeoutMs?: number } = {}): Promise<string | null> {
  if (!url || !(allowedThumbnail(url) || isStorageUrl(url))) return null;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error", headers: { accept: "image/*" } });
    if (!response.ok) return null;
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (declared > maxBytes) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const type = bytes.byteLength <= maxBytes ? sniffImageType(bytes) : null;
    return type ? `data:${type};base64,${Buffer.from(bytes).toString("base64")}` : null;
  } catch {
    return null;
  }
}

/** The first of `urls` that loads (a thumbnail, then the cover), or null: tried one after another. */
export async function firstPicture(urls: readonly string[]): Promise<string | null> {
  for (const url of urls) {
    const picture = await fetchPicture(url);
    if (picture) return picture;
  }
  return null;
}

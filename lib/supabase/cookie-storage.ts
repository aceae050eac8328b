// The browser session's storage: document.cookie, written exactly as @supabase/ssr's
// createBrowserClient writes it in cookie mode (its own chunker, base64url encoding, "base64-" prefix
// and default cookie options, all public exports of @supabase/ssr), so the server client, proxy.ts and
// other tabs read the same cookies. tests/unit/browser-session.test.ts holds the two to byte-for-byte
// the same cookies.
import {
  DEFAULT_COOKIE_OPTIONS,
  combineChunks,
  createChunks,
  isChunkLike,
  parseCookieHeader,
  serializeCookieHeader,
  stringFromBase64URL,
  stringToBase64URL,
} from "@supabase/ssr";

const base64Prefix = "base64-";

const documentCookies = () => parseCookieHeader(document.cookie);
const writeCookie = (name: string, value: string, maxAge: number | undefined) => {
  document.cookie = serializeCookieHeader(name, value, { ...DEFAULT_COOKIE_OPTIONS, maxAge });
};

/** A value as stored, or null when its chunks do not decode to JSON (a torn write): treated as absent. */
function decode(stored: string): string | null {
  if (!stored.startsWith(base64Prefix)) return stored;
  try {
    const decoded = stringFromBase64URL(stored.slice(base64Prefix.length));
    JSON.parse(decoded);
    return decoded;
  } catch {
    return null;
  }
}

export const sessionCookieStorage = {
  isServer: false,
  async getItem(key: string): Promise<string | null> {
    const cookies = documentCookies();
    const stored = await combineChunks(key, (name) => cookies.find((cookie) => cookie.name === name)?.value ?? null);
    return stored ? decode(stored) : null;
  },
  async setItem(key: string, value: string): Promise<void> {
    const stale = new Set(documentCookies().map(({ name }) => name).filter((name) => isChunkLike(name, key)));
    const chunks = createChunks(key, base64Prefix + stringToBase64URL(value));
    for (const { name } of chunks) stale.delete(name);
    for (const name of stale) writeCookie(name, "", 0);
    for (const { name, value: chunk } of chunks) writeCookie(name, chunk, DEFAULT_COOKIE_OPTIONS.maxAge);
  },
  async removeItem(key: string): Promise<void> {
    for (const { name } of documentCookies()) if (isChunkLike(name, key)) writeCookie(name, "", 0);
  },
};

/** When the session in the cookies expires (Unix seconds), or null when there is none or it does not parse. */
export async function storedSessionExpiry(storageKey: string): Promise<number | null> {
  const stored = await sessionCookieStorage.getItem(storageKey);
  if (!stored) return null;
  try {
    const expiresAt = (JSON.parse(stored) as { expires_at?: unknown }).expires_at;
    return typeof expiresAt === "number" ? expiresAt : null;
  } catch {
    return null;
  }
}

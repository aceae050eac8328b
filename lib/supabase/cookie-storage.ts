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

/**
 * The last value read and the cookies it was read from. A page asks for the session before each of
 * its requests; while the cookies are unchanged, the answer is the one already decoded.
 */
let lastRead: { key: string; cookieHeader: string; value: string | null } | null = null;

async function readItem(key: string, cookieHeader: string): Promise<string | null> {
  if (lastRead && lastRead.key === key && lastRead.cookieHeader === cookieHeader) return lastRead.value;
  const cookies = parseCookieHeader(cookieHeader);
  const stored = await combineChunks(key, (name) => cookies.find((cookie) => cookie.name === name)?.value ?? null);
  const value = stored ? decode(stored) : null;
  lastRead = { key, cookieHeader, value };
  return value;
}

type CookieStore = { getAll(): Promise<{ name: string; value: string }[]> };

/**
 * The page's cookies as a Cookie header, read without blocking the page: through the Cookie Store
 * API where the browser has one. Reading document.cookie waits for the browser's answer on the
 * page's main thread, which traces showed taking 4–55 ms on a page's first read while the page
 * loads. The API may lag behind a document.cookie write made just before, so only reads that never
 * follow a write of this page's own use it (see storedSession).
 */
async function cookieHeaderWithoutBlocking(): Promise<string> {
  const store = (globalThis as { cookieStore?: CookieStore }).cookieStore;
  if (!store) return document.cookie;
  try {
    return (await store.getAll()).map(({ name, value }) => `${name}=${value}`).join("; ");
  } catch {
    return document.cookie;
  }
}

export const sessionCookieStorage = {
  isServer: false,
  getItem: (key: string): Promise<string | null> => readItem(key, document.cookie),
  async setItem(key: string, value: string): Promise<void> {
    const stale = new Set(
      documentCookies()
        .map(({ name }) => name)
        .filter((name) => isChunkLike(name, key)),
    );
    const chunks = createChunks(key, base64Prefix + stringToBase64URL(value));
    for (const { name } of chunks) stale.delete(name);
    for (const name of stale) writeCookie(name, "", 0);
    for (const { name, value: chunk } of chunks) writeCookie(name, chunk, DEFAULT_COOKIE_OPTIONS.maxAge);
  },
  async removeItem(key: string): Promise<void> {
    for (const { name } of documentCookies()) if (isChunkLike(name, key)) writeCookie(name, "", 0);
  },
};

/**
 * The session in the cookies, as far as a page needs it before the session client loads: when it
 * expires (Unix seconds) and its access token. Null when there is none, or it has no expires_at.
 * Only the session client writes the cookies, and once it has loaded nothing asks this any more.
 */
export async function storedSession(storageKey: string): Promise<{ expiresAt: number; accessToken: string | null } | null> {
  const stored = await readItem(storageKey, await cookieHeaderWithoutBlocking());
  if (!stored) return null;
  try {
    const { expires_at: expiresAt, access_token: accessToken } = JSON.parse(stored) as { expires_at?: unknown; access_token?: unknown };
    if (typeof expiresAt !== "number") return null;
    return { expiresAt, accessToken: typeof accessToken === "string" && accessToken !== "" ? accessToken : null };
  } catch {
    return null;
  }
}

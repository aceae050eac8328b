// What the browser can learn about its session without loading supabase-js: the storage key (also
// the name of the channel on which the session client relays events to other tabs) and when the
// stored access token expires.
import { sessionCookieStorage } from "./cookie-storage";

/** The key supabase-js (and so @supabase/ssr's server client and proxy.ts) derives from the project URL. */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`;
}

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

import type { BrowserAuth } from "./client";
import { storedSessionExpiry } from "./cookie-storage";

/**
 * The access token the browser's data client sends: the session client's current one, or none when
 * the cookies hold no session and the session client has not loaded — a visitor's page then reads
 * and listens as anon without loading the session client at all. Asked before every request and
 * Realtime join, so a sign-in in another tab is picked up from its cookies.
 */
export async function currentAccessToken(storageKey: string, session: { loaded: () => boolean; load: () => Promise<BrowserAuth> }): Promise<string | null> {
  if (!session.loaded() && (await storedSessionExpiry(storageKey)) === null) return null;
  const auth = await session.load();
  return (await auth.getSession()).data.session?.access_token ?? null;
}

import type { BrowserAuth } from "./client";
import { storedSession } from "./cookie-storage";
import { tokenRefreshMarginMs } from "./session-key";

// The deferred session reads the stored session from here, so that the cookie reader arrives in the
// same chunk as this rule on every signed-in page (see lib/supabase/deferred-session.ts).
export { storedSession };

/**
 * The access token the browser's data and live clients send, asked before every request, every
 * Realtime join and heartbeat (so a sign-in or refresh in another tab is picked up from the cookies):
 * - none when the cookies hold no session and the session client has not loaded: a visitor's page
 *   reads and listens as anon;
 * - the token in the cookies while it has more than `tokenRefreshMarginMs` to live and the session
 *   client has not loaded: a signed-in page reads and listens without running the session client,
 *   which is loaded before the token is due (lib/supabase/deferred-session.ts);
 * - otherwise the session client's, which refreshes a token that is due first.
 */
export async function currentAccessToken(
  storageKey: string,
  session: { loaded: () => boolean; load: () => Promise<BrowserAuth> },
): Promise<string | null> {
  if (!session.loaded()) {
    const stored = await storedSession(storageKey);
    if (stored === null) return null;
    if (stored.accessToken && stored.expiresAt * 1000 - Date.now() > tokenRefreshMarginMs) return stored.accessToken;
  }
  const auth = await session.load();
  return (await auth.getSession()).data.session?.access_token ?? null;
}

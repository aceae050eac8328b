/** The key supabase-js (and so @supabase/ssr's server client and proxy.ts) derives from the project URL; also the name of the channel on which the session client relays events to other tabs. */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`;
}

/**
 * How long before its expiry a token counts as due: the session client refreshes a token that
 * expires within three of its 30 s ticks; a page without it loads it, and stops using the stored
 * token, a little before that.
 */
export const tokenRefreshMarginMs = 120_000;

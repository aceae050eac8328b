/** The key supabase-js (and so @supabase/ssr's server client and proxy.ts) derives from the project URL; also the name of the channel on which the session client relays events to other tabs. */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`;
}

import { AuthClient } from "@supabase/supabase-js";
import { publicConfig } from "../public-config";
import { sessionCookieStorage } from "./cookie-storage";
import { sessionStorageKey } from "./session-key";

export type BrowserAuth = InstanceType<typeof AuthClient>;

/**
 * The browser's one session client: Supabase Auth with the session in cookies (@supabase/ssr's
 * format, ./cookie-storage), PKCE, tokens refreshed automatically, session events relayed to the
 * other tabs. It is the auth client createBrowserClient builds inside supabase-js (same URL, headers,
 * storage key and cookies), without REST, Storage, Realtime and Functions, which only some pages use:
 * those come from ./data-client, on demand, on this session.
 */
export function createClient(): BrowserAuth {
  const { supabaseUrl, supabaseKey } = publicConfig;
  return new AuthClient({
    url: new URL("auth/v1", supabaseUrl.endsWith("/") ? supabaseUrl : `${supabaseUrl}/`).href,
    headers: { Authorization: `Bearer ${supabaseKey}`, apikey: supabaseKey },
    storageKey: sessionStorageKey(supabaseUrl),
    storage: sessionCookieStorage,
    flowType: "pkce",
    autoRefreshToken: true,
    persistSession: true,
    detectSessionInUrl: true,
  });
}

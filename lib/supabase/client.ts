import { createStorageFromOptions } from "@supabase/ssr/dist/module/cookies";
import { AuthClient } from "@supabase/supabase-js";
import { publicConfig } from "../public-config";

export type BrowserAuth = InstanceType<typeof AuthClient>;

/** The cookie name supabase-js derives from the project URL, which the server client reads too. */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`;
}

/** The session's storage: document.cookie, chunked and encoded exactly as `createBrowserClient` does. */
export function browserSessionStorage() {
  return createStorageFromOptions({ cookieEncoding: "base64url" }, false).storage;
}

/**
 * The browser's Supabase Auth client: session in cookies, PKCE, tokens refreshed automatically,
 * sign-out relayed to the other tabs. It is what `createBrowserClient` from `@supabase/ssr` builds
 * inside a full supabase-js client (same cookie storage and encoding, same storage key, same
 * headers), without the REST, Storage, Realtime and Functions clients: every signed-in page needs
 * the session, only some need those (see ./data-client.ts), and supabase-js is most of the weight.
 */
export function createAuthClient(): BrowserAuth {
  const { supabaseUrl, supabaseKey } = publicConfig;
  return new AuthClient({
    url: new URL("auth/v1", supabaseUrl.endsWith("/") ? supabaseUrl : `${supabaseUrl}/`).href,
    headers: { Authorization: `Bearer ${supabaseKey}`, apikey: supabaseKey },
    storageKey: sessionStorageKey(supabaseUrl),
    storage: browserSessionStorage(),
    flowType: "pkce",
    autoRefreshToken: true,
    persistSession: true,
    detectSessionInUrl: true,
  });
}

import { AuthClient, navigatorLock } from "@supabase/supabase-js";
import { projectServiceUrl, publicConfig } from "../public-config";
import { sessionCookieStorage } from "./cookie-storage";
import { sessionStorageKey } from "./session-key";

export type BrowserAuth = InstanceType<typeof AuthClient>;

/**
 * The browser's one session client: Supabase Auth with the session in cookies (@supabase/ssr's
 * format, ./cookie-storage), PKCE, tokens refreshed automatically, session events relayed to the
 * other tabs. It is the auth client createBrowserClient builds inside supabase-js (same URL, headers,
 * storage key and cookies), without REST, Storage, Realtime and Functions, which only some pages use:
 * those come from ./data-client, on demand, on this session.
 *
 * Every session read and write takes a lock shared by the site's tabs (the Web Locks API), so one
 * tab's token refresh (read, request, write) and another tab's sign-out (remove) never interleave.
 * Without it, supabase-js checks the stored session before it writes a refreshed one, but cookies
 * written in one tab reach another tab's reads asynchronously: a refresh that began before another
 * tab signed out could write the session back after it was removed, and a reload then found the
 * person signed in. The lock makes the two happen one after the other, in either order: refresh
 * then removal, or removal then no refresh (nothing stored). A holder that does not release it
 * within 10 s (a hung request) has it taken away, as supabase-js does after its timeout. supabase-js
 * marks the option deprecated (its v3 drops it) and says so once in the console when the client loads.
 */
export function createClient(): BrowserAuth {
  const { supabaseUrl, supabaseKey } = publicConfig;
  return new AuthClient({
    url: projectServiceUrl("auth/v1").href,
    headers: { Authorization: `Bearer ${supabaseKey}`, apikey: supabaseKey },
    storageKey: sessionStorageKey(supabaseUrl),
    storage: sessionCookieStorage,
    flowType: "pkce",
    autoRefreshToken: true,
    persistSession: true,
    detectSessionInUrl: true,
    // Web Locks exist only in secure contexts (https, localhost); elsewhere supabase-js runs lockless.
    lock: globalThis.navigator?.locks ? navigatorLock : undefined,
    lockAcquireTimeout: 10_000,
  });
}

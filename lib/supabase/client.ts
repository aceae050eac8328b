import { createBrowserClient } from "@supabase/ssr";
import { publicEnv } from "@/lib/env";
import type { Database } from "@/types/database";

/** The browser's Supabase client: session in cookies, PKCE, tokens refreshed automatically. */
export function createClient() {
  const env = publicEnv();
  return createBrowserClient<Database>(env.supabaseUrl, env.supabaseKey, {
    auth: { flowType: "pkce", autoRefreshToken: true, persistSession: true, detectSessionInUrl: true },
  });
}

import { createBrowserClient } from "@supabase/ssr";
import { publicConfig } from "@/lib/public-config";
import type { Database } from "@/types/database";

/** The browser's Supabase client: session in cookies, PKCE, tokens refreshed automatically. */
export function createClient() {
  return createBrowserClient<Database>(publicConfig.supabaseUrl, publicConfig.supabaseKey, {
    auth: { flowType: "pkce", autoRefreshToken: true, persistSession: true, detectSessionInUrl: true },
  });
}

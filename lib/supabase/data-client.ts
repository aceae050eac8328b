import { createClient } from "@supabase/supabase-js";
import { publicConfig } from "../public-config";
import type { Database } from "@/types/database";
import type { BrowserAuth } from "./client";

/**
 * The browser's data client (REST, Storage, Realtime, Functions), for pages that query or listen
 * in the browser. It holds no session of its own: every request and realtime channel uses the
 * auth client's current access token (supabase-js's `accessToken` option), so there is one session,
 * in cookies, refreshed in one place. Load it with a dynamic import: supabase-js is large.
 */
export function createDataClient(auth: BrowserAuth) {
  return createClient<Database>(publicConfig.supabaseUrl, publicConfig.supabaseKey, {
    accessToken: async () => (await auth.getSession()).data.session?.access_token ?? null,
  });
}

export type BrowserData = ReturnType<typeof createDataClient>;

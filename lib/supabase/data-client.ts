import { createClient } from "@supabase/supabase-js";
import { publicConfig } from "../public-config";
import type { Database } from "@/types/database";

/**
 * The browser's data client (REST, Storage, Realtime, Functions) for pages that query or listen in
 * the browser; load it with a dynamic import (supabase-js is most of a page's JavaScript). It keeps
 * no session: each request and Realtime join uses the session client's current access token
 * (supabase-js's `accessToken` option; see ./access-token.ts), so the session lives in one place, in
 * cookies.
 */
export function createDataClient(accessToken: () => Promise<string | null>) {
  return createClient<Database>(publicConfig.supabaseUrl, publicConfig.supabaseKey, { accessToken });
}

export type BrowserData = ReturnType<typeof createDataClient>;

import { createClient } from "@supabase/supabase-js";
import { publicEnv, serviceRoleKey } from "@/lib/env";
import type { Database } from "@/types/database";

/** Service-role client for server code, only where a policy cannot express the rule. */
export function createAdminClient() {
  return createClient<Database>(publicEnv().supabaseUrl, serviceRoleKey(), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

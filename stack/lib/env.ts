import type { StackConfig } from "./config.ts";
import { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey } from "./keys.ts";
import { dbUrl } from "./postgres.ts";
import { chainEnv } from "../chain/deployment.ts";

/**
 * The variables `supabase status -o env` prints for a local project, plus the names the app
 * reads. Both sets point at the same services, so the file works with the stack or `supabase start`.
 */
export function stackEnv(config: StackConfig): Record<string, string> {
  const apiUrl = `http://127.0.0.1:${config.apiPort}`;
  return {
    ANON_KEY: anonKey,
    API_URL: apiUrl,
    DB_URL: dbUrl(config),
    FUNCTIONS_URL: `${apiUrl}/functions/v1`,
    GRAPHQL_URL: `${apiUrl}/graphql/v1`,
    INBUCKET_URL: `http://127.0.0.1:${config.inboxPort}`,
    JWT_SECRET: jwtSecret,
    MAILPIT_URL: `http://127.0.0.1:${config.inboxPort}`,
    PUBLISHABLE_KEY: publishableKey,
    REST_URL: `${apiUrl}/rest/v1`,
    SECRET_KEY: secretKey,
    SERVICE_ROLE_KEY: serviceRoleKey,
    STORAGE_URL: `${apiUrl}/storage/v1`,
    NEXT_PUBLIC_SUPABASE_URL: apiUrl,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: publishableKey,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: anonKey,
    SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
    ...chainEnv(config.chainPort),
  };
}

export function formatEnv(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `${key}="${value}"`)
    .join("\n");
}

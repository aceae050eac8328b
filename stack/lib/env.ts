import type { StackConfig } from "./config.ts";
import { anonKey, jwtSecret, publishableKey, secretKey, serviceRoleKey } from "./keys.ts";
import { dbUrl } from "./postgres.ts";
import { chainEnv } from "./chain.ts";

/**
 * The variables `supabase status -o env` prints for a local project, plus the names the app
 * reads. Both sets point at the same services, so the file works with the stack or `supabase start`.
 * Then the local chain's, as the project's deploy script names them (none without one).
 */
export async function stackEnv(config: StackConfig): Promise<Record<string, string>> {
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
    ...(await chainEnv(config)),
  };
}

/**
 * Whether this is the project's own stack (config.toml's ports, `.stack/`), the only one that
 * writes the app's `.env.local`. Any STACK_DIR or STACK_*_PORT override makes a private stack.
 */
export function isProjectStack(env: Record<string, string | undefined> = process.env): boolean {
  return !Object.entries(env).some(
    ([name, value]) => value !== undefined && value !== "" && (name === "STACK_DIR" || /^STACK_\w+_PORT$/.test(name)),
  );
}

export function formatEnv(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `${key}="${value}"`)
    .join("\n");
}

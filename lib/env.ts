import { z } from "./validation/zod.ts";

// The app's configuration, validated once with messages that say what to do.
// NEXT_PUBLIC_* must be read as literal `process.env.NAME` so Next.js can inline them in bundles.

const fixHint = "run `npm run stack -- start` (it writes .env.local) or set it to your Supabase project's value";

const publicSchema = z.object({
  supabaseUrl: z.url({ error: `NEXT_PUBLIC_SUPABASE_URL must be a URL: ${fixHint}` }),
  supabaseKey: z.string({ error: `NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is missing: ${fixHint}` }).min(1, `NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is empty: ${fixHint}`),
  siteUrl: z.url({ error: "NEXT_PUBLIC_SITE_URL must be a URL such as http://localhost:3000" }),
  thirdwebClientId: z.string().optional(),
});

export type PublicEnv = z.infer<typeof publicSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parsePublicEnv(values: Record<string, string | undefined>): PublicEnv {
  const parsed = publicSchema.safeParse({
    supabaseUrl: values.NEXT_PUBLIC_SUPABASE_URL,
    supabaseKey: values.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || values.NEXT_PUBLIC_SUPABASE_ANON_KEY,
    siteUrl: values.NEXT_PUBLIC_SITE_URL || "http://localhost:3000",
    thirdwebClientId: values.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || undefined,
  });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join("\n"));
  return parsed.data;
}

let cached: PublicEnv | undefined;

export function publicEnv(): PublicEnv {
  cached ??= parsePublicEnv({
    NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
    NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL,
    NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID,
  });
  return cached;
}

/** The service-role key, for server code only; never exposed with a NEXT_PUBLIC_ name. */
export function serviceRoleKey(): string {
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY || process.env.SUPABASE_SECRET_KEY;
  if (!key) throw new ConfigError(`SUPABASE_SERVICE_ROLE_KEY is missing: ${fixHint}`);
  return key;
}

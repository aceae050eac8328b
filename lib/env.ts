// The app's configuration, validated once with messages that say what to do.
// NEXT_PUBLIC_* must be read as literal `process.env.NAME` so Next.js can inline them in bundles.
// Plain checks, not zod: every request passes through here (proxy.ts, the root layout), and zod
// with its locales would otherwise be the largest part of the first route `next dev` compiles.

const fixHint = "run `npm run stack -- start` (it writes .env.local) or set it to your Supabase project's value";

export interface PublicEnv {
  supabaseUrl: string;
  supabaseKey: string;
  siteUrl: string;
  thirdwebClientId?: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

function isHttpUrl(value: string | undefined): value is string {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export function parsePublicEnv(values: Record<string, string | undefined>): PublicEnv {
  const supabaseUrl = values.NEXT_PUBLIC_SUPABASE_URL;
  const supabaseKey = values.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || values.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  const siteUrl = values.NEXT_PUBLIC_SITE_URL || "http://localhost:3000";
  const problems: string[] = [];
  if (!isHttpUrl(supabaseUrl)) problems.push(`NEXT_PUBLIC_SUPABASE_URL must be a URL: ${fixHint}`);
  if (supabaseKey === undefined) problems.push(`NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is missing: ${fixHint}`);
  else if (supabaseKey === "") problems.push(`NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is empty: ${fixHint}`);
  if (!isHttpUrl(siteUrl)) problems.push("NEXT_PUBLIC_SITE_URL must be a URL such as http://localhost:3000");
  const transforms = values.NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS;
  if (transforms && transforms !== "true" && transforms !== "false")
    problems.push(
      `NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS must be true or false, not "${transforms}" (false where the Supabase plan has no image transformations)`,
    );
  if (problems.length > 0) throw new ConfigError(problems.join("\n"));
  return {
    supabaseUrl: supabaseUrl!,
    supabaseKey: supabaseKey!,
    siteUrl,
    thirdwebClientId: values.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || undefined,
  };
}

let cached: PublicEnv | undefined;

export function publicEnv(): PublicEnv {
  cached ??= parsePublicEnv({
    NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
    NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL,
    NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID,
    NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS: process.env.NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS,
  });
  return cached;
}

/** The service-role key, for server code only; never exposed with a NEXT_PUBLIC_ name. */
export function serviceRoleKey(): string {
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY || process.env.SUPABASE_SECRET_KEY;
  if (!key) throw new ConfigError(`SUPABASE_SERVICE_ROLE_KEY is missing: ${fixHint}`);
  return key;
}

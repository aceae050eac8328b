// The public (NEXT_PUBLIC_*) settings as plain values, for code that runs in the browser. Next.js
// inlines them at build time; the server validates the same values with zod (lib/env.ts) in
// proxy.ts on every request, so a bad configuration fails there with a readable message. Keeping
// zod out of this module keeps it out of every page's first-load JavaScript.
export const publicConfig = {
  supabaseUrl: process.env.NEXT_PUBLIC_SUPABASE_URL ?? "",
  supabaseKey: process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY || "",
  /** "true" or "false": whether Storage resizes avatars and covers (lib/storage/image-url.ts); unset, only a local backend does. */
  storageImageTransforms: process.env.NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS || undefined,
} as const;

/** A Supabase service's URL under the project URL (`auth/v1`, `realtime/v1`), with or without its trailing slash. */
export function projectServiceUrl(path: string): URL {
  const { supabaseUrl } = publicConfig;
  return new URL(path, supabaseUrl.endsWith("/") ? supabaseUrl : `${supabaseUrl}/`);
}

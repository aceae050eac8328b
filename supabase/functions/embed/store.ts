// The embed cache (public.media_embeds), written and read by the server only (service_role).
import { createClient } from "npm:@supabase/supabase-js@2";
import type { EmbedMetadata } from "../../../lib/media/oembed-normalise.ts";
import { oembedProviders } from "../../../lib/media/oembed-providers.ts";

/** How long a lookup is served from the cache before the provider is asked again. */
export const embedCacheTtlMs = 7 * 24 * 60 * 60 * 1000;

const db = createClient(Deno.env.get("SUPABASE_URL")!, Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, {
  auth: { persistSession: false, autoRefreshToken: false },
});

interface EmbedRow {
  url: string;
  provider: EmbedMetadata["provider"];
  title: string | null;
  author: string | null;
  thumbnail_url: string | null;
  duration_seconds: number | null;
  width: number | null;
  height: number | null;
}

export async function cachedEmbed(url: string): Promise<EmbedMetadata | null> {
  const freshSince = new Date(Date.now() - embedCacheTtlMs).toISOString();
  const { data, error } = await db
    .from("media_embeds")
    .select("url, provider, title, author, thumbnail_url, duration_seconds, width, height")
    .eq("url", url)
    .gt("fetched_at", freshSince)
    .maybeSingle();
  if (error) throw error;
  if (!data) return null;
  const row = data as EmbedRow;
  const provider = oembedProviders.find((candidate) => candidate.key === row.provider);
  if (!provider) return null;
  return {
    provider: provider.key,
    provider_name: provider.name,
    title: row.title,
    author: row.author,
    thumbnail_url: row.thumbnail_url,
    duration: row.duration_seconds === null ? null : Number(row.duration_seconds),
    width: row.width,
    height: row.height,
  };
}

export async function saveEmbed(url: string, embed: EmbedMetadata): Promise<void> {
  const row: EmbedRow & { fetched_at: string } = {
    url,
    provider: embed.provider,
    title: embed.title,
    author: embed.author,
    thumbnail_url: embed.thumbnail_url,
    duration_seconds: embed.duration,
    width: embed.width,
    height: embed.height,
    fetched_at: new Date().toISOString(),
  };
  const { error } = await db.from("media_embeds").upsert(row, { onConflict: "url" });
  if (error) throw error;
}

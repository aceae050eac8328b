import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { providerName } from "@/lib/media/playable";
import { embedMetadataSchema, type EmbedMetadata } from "@/lib/validation/post";

export type EmbedLookup = { ok: true; data: EmbedMetadata } | { ok: false; error: string };

export function unreachableMessage(url: string): string {
  return `We couldn't reach ${providerName(url)} to read this link's details — you can still post it`;
}

/** The metadata in the function's answer: `{ data: {...} }` or the metadata itself. */
function metadataIn(answer: unknown): EmbedMetadata | null {
  const candidate = answer && typeof answer === "object" && "data" in answer ? (answer as { data: unknown }).data : answer;
  const parsed = embedMetadataSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/**
 * A link's normalised metadata from the `embed` edge function (which alone talks to the allow-listed
 * providers). Anything but metadata — the provider unreachable, no provider for the link, the
 * function itself down — reads as "we couldn't reach it", and the post goes ahead without.
 */
export async function lookupEmbed(supabase: SupabaseClient<Database>, url: string): Promise<EmbedLookup> {
  try {
    const { data, error } = await supabase.functions.invoke("embed", { body: { url }, timeout: 8000 });
    const metadata = error ? null : metadataIn(data);
    return metadata ? { ok: true, data: metadata } : { ok: false, error: unreachableMessage(url) };
  } catch {
    return { ok: false, error: unreachableMessage(url) };
  }
}

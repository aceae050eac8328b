import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { findOembedProvider } from "@/lib/media/oembed-providers";
import type { Result } from "@/lib/result";
import { embedMessages } from "@/lib/validation/embed";
import { maxPostDurationSeconds } from "@/lib/validation/post";
import { readStoredEmbed, type StoredEmbed } from "./stored-embed";

export type EmbedLookup = Result<StoredEmbed>;

/** "We couldn't reach YouTube …", naming the link's provider (or its host when none describes it). */
function unreachableMessage(url: string): string {
  let name = "the site";
  try {
    const parsed = new URL(url);
    name = findOembedProvider(parsed)?.name ?? parsed.hostname;
  } catch {
    // the link was checked before; keep the generic name
  }
  return embedMessages.unreachable(name);
}

/** The metadata in the function's answer (`{ url, embed, cached }`), or null. */
function metadataIn(answer: unknown): StoredEmbed | null {
  if (!answer || typeof answer !== "object" || !("embed" in answer)) return null;
  return readStoredEmbed((answer as { embed: unknown }).embed);
}

/** The function's own words for a refusal (e.g. "We couldn't reach YouTube …"), when it sent them. */
async function refusalIn(error: unknown): Promise<string | null> {
  const context = error && typeof error === "object" && "context" in error ? (error as { context: unknown }).context : null;
  if (!(context instanceof Response)) return null;
  try {
    const body = (await context.json()) as { error?: unknown };
    return typeof body.error === "string" && body.error.length < 300 ? body.error : null;
  } catch {
    return null;
  }
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
    if (metadata) return { ok: true, data: metadata };
    return { ok: false, error: (error && (await refusalIn(error))) || unreachableMessage(url) };
  } catch {
    return { ok: false, error: unreachableMessage(url) };
  }
}

/**
 * The media's length as its provider gave it (Vimeo, Wistia, a Twitch recording), to store as the
 * post's: its length shows in the feed and its comments' markers before the player has loaded.
 * Null when the provider gave none, or one longer than a post may be.
 */
export function embedDurationSeconds(embed: StoredEmbed): number | null {
  const seconds = embed.duration;
  return typeof seconds === "number" && seconds > 0 && seconds <= maxPostDurationSeconds ? seconds : null;
}

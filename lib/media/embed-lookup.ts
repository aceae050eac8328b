// Calling the embed function from the app (browser or server), as a typed result: the metadata,
// or the function's code and message (which already says the link can still be posted).
import type { EmbedMetadata } from "./oembed-normalise.ts";
import type { EmbedFailureCode } from "../validation/embed.ts";

export type EmbedLookup =
  | { ok: true; url: string; embed: EmbedMetadata; cached: boolean }
  | { ok: false; code: EmbedFailureCode | "network"; error: string; provider?: string };

/** The part of a supabase-js client this needs (so any client, typed or not, will do). */
interface FunctionsCaller {
  functions: { invoke(name: string, options: { body: Record<string, unknown> }): Promise<{ data: unknown; error: unknown }> };
}

const networkMessage = "We couldn't look up this link's details just now — you can still post it.";

export async function lookUpEmbed(client: FunctionsCaller, url: string): Promise<EmbedLookup> {
  const { data, error } = await client.functions.invoke("embed", { body: { url } });
  if (!error) {
    const answer = data as { url: string; embed: EmbedMetadata; cached: boolean };
    return { ok: true, url: answer.url, embed: answer.embed, cached: answer.cached };
  }
  // FunctionsHttpError carries the function's own answer as `context` (a Response)
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    const body = (await context.json().catch(() => null)) as { code?: EmbedFailureCode; error?: string; provider?: string } | null;
    if (body?.code && body.error)
      return { ok: false, code: body.code, error: body.error, ...(body.provider ? { provider: body.provider } : {}) };
  }
  return { ok: false, code: "network", error: networkMessage };
}

// embed: the details of a media link (title, author, thumbnail, duration, size), read from the
// link's provider's oEmbed endpoint and cached in public.media_embeds.
//   POST {"url": "https://…"}  → 200 {url, embed, cached}
//                              → 400 invalid_url | not_allow_listed | malformed (the message says why)
//                              → 503 provider_unreachable, 502 provider_not_found | provider_bad_answer,
//                                each with the provider's name and a message saying the link can still be posted
// Only providers in the fixed allow-list are asked, each at its own endpoint: the link picks a
// provider from the list, it never names the host that is asked.
import { callerClaims } from "../_shared/auth.ts";
import { corsHeaders, json } from "../_shared/cors.ts";
import { normaliseOembed } from "../../../lib/media/oembed-normalise.ts";
import { findOembedProvider, oembedRequestUrl } from "../../../lib/media/oembed-providers.ts";
import { checkMediaUrl } from "../../../lib/media/url-rules.ts";
import { embedMessages, embedRequestSchema, type EmbedFailureCode } from "../../../lib/validation/embed.ts";
import { endpointFor } from "./endpoints.ts";
import { fetchOembed } from "./fetch-oembed.ts";
import * as store from "./store.ts";

const fail = (status: number, code: EmbedFailureCode, error: string, provider?: string) =>
  json(provider ? { code, error, provider } : { code, error }, status);

async function lookUp(input: string): Promise<Response> {
  const checked = checkMediaUrl(input);
  if (!checked.ok) return fail(400, "invalid_url", checked.error);
  const provider = findOembedProvider(checked.url);
  if (!provider) return fail(400, "not_allow_listed", embedMessages.notAllowListed);
  const url = checked.url.href;

  const cached = await store.cachedEmbed(url);
  if (cached) return json({ url, embed: cached, cached: true });

  const outcome = await fetchOembed(oembedRequestUrl(endpointFor(provider), provider, checked.url));
  if (!outcome.ok) {
    console.error(`embed: ${provider.name} (${outcome.reason}): ${outcome.detail}`);
    if (outcome.reason === "unreachable") return fail(503, "provider_unreachable", embedMessages.unreachable(provider.name), provider.name);
    if (outcome.reason === "not_found") return fail(502, "provider_not_found", embedMessages.notFound(provider.name), provider.name);
    return fail(502, "provider_bad_answer", embedMessages.badAnswer(provider.name), provider.name);
  }
  const embed = normaliseOembed(provider, outcome.answer);
  if (!embed) {
    console.error(`embed: ${provider.name} answered JSON that is not an oEmbed object`);
    return fail(502, "provider_bad_answer", embedMessages.badAnswer(provider.name), provider.name);
  }
  try {
    await store.saveEmbed(url, embed);
  } catch (error) {
    // the details are good; only the next lookup of this link will ask the provider again
    console.error("embed: could not cache", url, error);
  }
  return json({ url, embed, cached: false });
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return fail(405, "malformed", embedMessages.malformed);
  const caller = callerClaims(req);
  if (caller.role !== "authenticated" || !caller.sub) return fail(401, "not_signed_in", embedMessages.notSignedIn);

  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return fail(400, "malformed", embedMessages.malformed);
  }
  const input = embedRequestSchema.safeParse(body);
  if (!input.success) return fail(400, "malformed", embedMessages.malformed);

  try {
    return await lookUp(input.data.url);
  } catch (error) {
    console.error("embed failed:", error);
    return fail(500, "internal", embedMessages.internal);
  }
});

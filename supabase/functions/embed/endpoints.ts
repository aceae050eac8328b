// Where each allow-listed provider's oEmbed endpoint is: the provider's real one, unless the
// operator sets OEMBED_ENDPOINT_<KEY> (a staging mirror, or local servers in development and tests).
import { endpointVariable, type OembedProvider } from "../../../lib/media/oembed-providers.ts";

export class EndpointMisconfigured extends Error {}

export function endpointFor(provider: OembedProvider): string {
  const name = endpointVariable(provider.key);
  const configured = Deno.env.get(name)?.trim();
  // The Supabase CLI leaves `env(NAME)` in [edge_runtime.secrets] as written when NAME is unset.
  if (!configured || /^env\(\w+\)$/.test(configured)) return provider.endpoint;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new EndpointMisconfigured(`${name} is not a URL: ${configured}`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.username || url.password || url.search || url.hash) {
    throw new EndpointMisconfigured(`${name} must be an http(s) URL without credentials, query or fragment: ${configured}`);
  }
  return url.href;
}

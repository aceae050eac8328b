import type { Metadata } from "next";
import { headers } from "next/headers";
import { oembedDiscoveryHref, requestOrigin } from "./oembed";

/**
 * The oEmbed discovery link of a public post's page (`<link rel="alternate"
 * type="application/json+oembed">`), for the page's metadata: how other sites find its embed.
 */
export async function oembedAlternates(pagePath: string, title: string): Promise<Metadata["alternates"]> {
  const origin = requestOrigin(await headers(), process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000");
  return { types: { "application/json+oembed": [{ url: oembedDiscoveryHref(origin, `${origin}${pagePath}`), title }] } };
}

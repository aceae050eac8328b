import type { Metadata } from "next";
import { headers } from "next/headers";
import { publicEnv } from "@/lib/env";
import { oembedDiscoveryHref, requestOrigin } from "./oembed";

/**
 * The oEmbed discovery link of a public post's page (`<link rel="alternate"
 * type="application/json+oembed">`), for the page's metadata: how other sites find its embed.
 */
export async function oembedAlternates(pagePath: string, title: string): Promise<Metadata["alternates"]> {
  const origin = requestOrigin(await headers(), publicEnv().siteUrl);
  return { types: { "application/json+oembed": [{ url: oembedDiscoveryHref(origin, `${origin}${pagePath}`), title }] } };
}

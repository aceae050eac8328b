import type { Metadata } from "next";
import { headers } from "next/headers";
import { requestOrigin } from "@/lib/embed/oembed";
import { publicEnv } from "@/lib/env";
import type { Preview } from "./card";

/** The preview picture's size: what Open Graph consumers and X's large card expect. */
export const previewImageSize = { width: 1200, height: 630 } as const;

const siteName = "Cuepoint";

/** The picture's address: its route with the content's version, so a change of words is a new URL (and a cached copy is never stale). */
function previewImageUrl(origin: string, preview: Preview): string {
  return `${origin}${preview.imagePath}?v=${preview.version}`;
}

/** Open Graph and X card tags for a page, from its preview; absolute URLs on `origin`. */
export function previewTags(preview: Preview, origin: string): Pick<Metadata, "openGraph" | "twitter"> {
  const image = { url: previewImageUrl(origin, preview), ...previewImageSize, alt: preview.alt, type: "image/png" };
  return {
    openGraph: {
      title: preview.title,
      description: preview.description,
      url: `${origin}${preview.path}`,
      siteName,
      type: "website",
      images: [image],
    },
    twitter: {
      card: "summary_large_image",
      title: preview.title,
      description: preview.description,
      images: [{ url: image.url, alt: image.alt, ...previewImageSize }],
    },
  };
}

/** This request's origin (as the oEmbed discovery link names it), falling back to the configured site URL. */
async function siteOrigin(): Promise<string> {
  return requestOrigin(await headers(), publicEnv().siteUrl);
}

/** The tags for `preview` on this request's origin; none when there is nothing to preview. */
export async function previewMetadata(preview: Preview | null): Promise<Pick<Metadata, "openGraph" | "twitter">> {
  return preview ? previewTags(preview, await siteOrigin()) : {};
}

import { ImageResponse } from "next/og";
import type { Preview } from "@/lib/previews/card";
import { previewImageSize } from "@/lib/previews/metadata";
import { firstPicture } from "@/lib/previews/pictures";
import { PreviewImage } from "./preview-image";

/**
 * Cache-Control for a preview picture. Its URL carries the version of what it shows: asked for at the
 * current version, a cache may keep it an hour and serve it a day longer while it asks again; at an
 * old version (the words changed, or the room became members-only) the current picture is sent,
 * kept five minutes only.
 */
function previewCacheControl(current: boolean): string {
  return current ? "public, max-age=3600, stale-while-revalidate=86400" : "public, max-age=300, stale-while-revalidate=60";
}

/** The PNG for `preview` (or a 404 when there is nothing to preview). */
export async function previewImageResponse(preview: Preview | null, request: Request): Promise<Response> {
  if (!preview)
    return new Response("There's nothing at this address to preview.", { status: 404, headers: { "cache-control": "public, max-age=60" } });
  const current = new URL(request.url).searchParams.get("v") === preview.version;
  const headers = {
    "cache-control": previewCacheControl(current),
    // The version names what the picture shows: a cache asking again with it is told nothing changed, with no render.
    etag: `W/"${preview.version}"`,
    "x-content-type-options": "nosniff",
  };
  if (request.headers.get("if-none-match")?.includes(headers.etag)) return new Response(null, { status: 304, headers });
  const picture = await firstPicture(preview.card.pictures);
  return new ImageResponse(<PreviewImage card={preview.card} picture={picture} />, { ...previewImageSize, headers });
}

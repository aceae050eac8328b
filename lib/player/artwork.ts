import { coverBucket } from "@/lib/rooms/covers";
import { defaultConfig, type ImageConfig, renderedImageUrl } from "@/lib/storage/image-url";
import { publicObjectUrl } from "@/lib/storage/public-url";
import type { MediaSessionPicture } from "./media-session";

/** The square sizes a lock screen or a car's display picks from. */
export const artworkSizes = [96, 192, 256, 512] as const;

/**
 * The picture the lock screen shows: the post's own thumbnail (a link's, from its provider; its size
 * is the provider's), else the room's cover in square sizes (or the original file where Storage's
 * transformations are off), else none.
 */
export function mediaArtwork(
  thumbnail: string | null | undefined,
  coverPath: string | null | undefined,
  config: ImageConfig = defaultConfig(),
): MediaSessionPicture[] {
  if (thumbnail) return [{ src: thumbnail }];
  if (!coverPath) return [];
  if (!config.transforms) return [{ src: publicObjectUrl(config.supabaseUrl, coverBucket, coverPath) }];
  return artworkSizes.map((size) => ({
    src: renderedImageUrl(config.supabaseUrl, coverBucket, coverPath, size, size),
    sizes: `${size}x${size}`,
  }));
}

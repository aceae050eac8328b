import { fluidImage } from "@/lib/storage/fluid-image";
import { fixedSizeImage, type ImageConfig, type ImageSource } from "@/lib/storage/image-url";

// A room's cover lives in the public room-covers bucket, whose policies let only the room's owner and
// moderators write `{room id}/…`. What the bucket takes and where a new cover goes: lib/storage/upload.ts.
export const coverBucket = "room-covers";

/** Whether a path names a cover file in this room's folder (the only paths rooms.cover_path takes). */
export function isCoverPathOf(roomId: string, path: string): boolean {
  return (
    path.startsWith(`${roomId}/`) && path.length > roomId.length + 1 && !path.includes("..") && !path.slice(roomId.length + 1).includes("/")
  );
}

/** How a cover is drawn: a fixed square (thumbnails), or as wide as its column, up to `maxWidth`, cropped to `aspect`. */
export type CoverSize = { square: number } | { maxWidth: number; aspect?: number };

/** A room's cover (public bucket: no signing needed) at the size it is drawn, or the original where transformations are off. */
export function roomCoverImage(path: string | null | undefined, size: CoverSize, config?: ImageConfig): ImageSource | null {
  if (!path) return null;
  return "square" in size
    ? fixedSizeImage(coverBucket, path, { width: size.square, height: size.square }, config)
    : fluidImage(coverBucket, path, size, config);
}

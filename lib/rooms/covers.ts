import { publicConfig } from "@/lib/public-config";
import { publicObjectUrl } from "@/lib/storage/public-url";

// A room's cover lives in the public room-covers bucket, whose policies let only the room's owner and
// moderators write `{room id}/…`. What the bucket takes and where a new cover goes: lib/storage/upload.ts.
export const coverBucket = "room-covers";

/** Whether a path names a cover file in this room's folder (the only paths rooms.cover_path takes). */
export function isCoverPathOf(roomId: string, path: string): boolean {
  return (
    path.startsWith(`${roomId}/`) && path.length > roomId.length + 1 && !path.includes("..") && !path.slice(roomId.length + 1).includes("/")
  );
}

/** Public URL of a room's cover (public bucket: no signing needed). */
export function roomCoverUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  return publicObjectUrl(publicConfig.supabaseUrl, coverBucket, path);
}

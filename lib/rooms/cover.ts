import { publicConfig } from "@/lib/public-config";

/** Public URL of a room's cover in the room-covers bucket (public bucket: no signing needed). */
export function roomCoverUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return `${publicConfig.supabaseUrl}/storage/v1/object/public/room-covers/${encoded}`;
}

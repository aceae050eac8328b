import { publicConfig } from "@/lib/public-config";
import { publicObjectUrl } from "@/lib/storage/public-url";

/** Public URL of an object in the avatars bucket (public bucket: no signing needed). */
export function avatarUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  return publicObjectUrl(publicConfig.supabaseUrl, "avatars", path);
}

export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");
  return letters || "?";
}

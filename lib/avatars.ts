import { publicConfig } from "@/lib/public-config";

/** Public URL of an object in the avatars bucket (public bucket: no signing needed). */
export function avatarUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return `${publicConfig.supabaseUrl}/storage/v1/object/public/avatars/${encoded}`;
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

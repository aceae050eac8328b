import { fixedSizeImage, type ImageConfig, type ImageSource } from "@/lib/storage/image-url";

/**
 * An avatar (public bucket: no signing needed) as drawn in a `size`×`size` CSS box: a copy of that
 * size and sharper ones for 2x/3x screens, or the original file where transformations are off.
 */
export function avatarImage(path: string | null | undefined, size: number, config?: ImageConfig): ImageSource | null {
  if (!path) return null;
  return fixedSizeImage("avatars", path, { width: size, height: size }, config);
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

import { publicConfig } from "@/lib/public-config";
import { publicObjectUrl } from "@/lib/storage/public-url";

// Pictures from public buckets (avatars, room covers) asked for at the size they are drawn: Storage's
// image transformations (/storage/v1/render/image/public/…, the URL storage-js getPublicUrl builds
// with `transform`) resize them, and a srcset gives 2x and 3x screens sharper copies. Hosted Supabase
// serves transformations on paid plans only, so NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS=false falls back
// to the original file; unset, they are on for a local backend and off elsewhere.

/** Storage clamps a side to 2,000 px; never ask for more. */
export const maxTransformSide = 2000;
const densities = [1, 2, 3] as const;

export interface ImageSource {
  src: string;
  /** Absent when transformations are off: the original file is the only copy. */
  srcSet?: string;
}

export interface ImageConfig {
  supabaseUrl: string;
  transforms: boolean;
}

function isLocalHost(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname.endsWith(".localhost");
  } catch {
    return false;
  }
}

/** Whether to ask Storage for transformed copies: the switch when set, otherwise only for a local backend. */
export function transformsEnabled(setting: string | undefined, supabaseUrl: string): boolean {
  if (setting === "true") return true;
  if (setting === "false") return false;
  return isLocalHost(supabaseUrl);
}

/** The app's own settings: its Supabase URL and whether transformations are on. */
export const defaultConfig = (): ImageConfig => ({
  supabaseUrl: publicConfig.supabaseUrl,
  transforms: transformsEnabled(publicConfig.storageImageTransforms, publicConfig.supabaseUrl),
});

/** A resized copy's public URL, in the shape storage-js getPublicUrl(path, { transform }) gives. */
export function renderedImageUrl(supabaseUrl: string, bucket: string, path: string, width: number, height?: number): string {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const query = new URLSearchParams({ width: String(width) });
  if (height) query.set("height", String(height));
  query.set("resize", "cover");
  return `${supabaseUrl}/storage/v1/render/image/public/${bucket}/${encoded}?${query}`;
}

/**
 * A picture drawn at a fixed CSS size (an avatar): the 1x copy as `src` and 1x/2x/3x copies in
 * `srcSet`, each cropped to the box. Densities past Storage's 2,000 px limit are left out.
 */
export function fixedSizeImage(
  bucket: string,
  path: string,
  size: { width: number; height: number },
  config: ImageConfig = defaultConfig(),
): ImageSource {
  if (!config.transforms) return { src: publicObjectUrl(config.supabaseUrl, bucket, path) };
  const url = (density: number) =>
    renderedImageUrl(config.supabaseUrl, bucket, path, Math.round(size.width * density), Math.round(size.height * density));
  const fitting = densities.filter((density) => density === 1 || Math.max(size.width, size.height) * density <= maxTransformSide);
  return { src: url(1), srcSet: fitting.map((density) => `${url(density)} ${density}x`).join(", ") };
}

import { publicObjectUrl } from "@/lib/storage/public-url";
import { defaultConfig, type ImageConfig, type ImageSource, maxTransformSide, renderedImageUrl } from "@/lib/storage/image-url";

// Covers' widths apart from ./image-url.ts, so the code that draws avatars (in the feed's cards,
// loaded with the room page) leaves this out.

/** Widths offered for a picture whose drawn width depends on the screen. */
const fluidSteps = [160, 320, 480, 640, 960, 1280, 1600, 2000];

/**
 * A picture whose drawn width follows the screen (a cover): copies from 160 px up to three times
 * `maxWidth` with width descriptors, for an <img sizes> that says how wide it is drawn. `aspect`
 * (width / height) crops each copy to the box the picture fills; without it the height follows.
 */
export function fluidImage(
  bucket: string,
  path: string,
  options: { maxWidth: number; aspect?: number },
  config: ImageConfig = defaultConfig(),
): ImageSource {
  if (!config.transforms) return { src: publicObjectUrl(config.supabaseUrl, bucket, path) };
  const largest = Math.min(options.maxWidth * 3, maxTransformSide);
  const widths = [...new Set([...fluidSteps.filter((width) => width < largest), largest])];
  const url = (width: number) =>
    renderedImageUrl(config.supabaseUrl, bucket, path, width, options.aspect ? Math.max(1, Math.round(width / options.aspect)) : undefined);
  return {
    src: url(Math.min(options.maxWidth, maxTransformSide)),
    srcSet: widths.map((width) => `${url(width)} ${width}w`).join(", "),
  };
}

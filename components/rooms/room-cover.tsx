import { initials } from "@/lib/avatars";
import { type CoverSize, roomCoverImage } from "@/lib/rooms/covers";

/**
 * A room's cover picture, or, without one, a pattern in the accent colour with the room's
 * initials, so every card and header keeps the same shape. Decorative: the room's name is next to it.
 * `size` says how it is drawn (a fixed square, or a column's width, with `sizes` for the browser),
 * so Storage sends a copy of that size rather than the uploaded file.
 */
export function RoomCover({
  path,
  name,
  size,
  sizes,
  className = "",
}: {
  path: string | null;
  name: string;
  size: CoverSize;
  sizes?: string;
  className?: string;
}) {
  const image = roomCoverImage(path, size);
  if (image) {
    const width = "square" in size ? size.square : size.maxWidth;
    const height = "square" in size ? size.square : size.aspect ? Math.round(size.maxWidth / size.aspect) : undefined;
    return (
      // eslint-disable-next-line @next/next/no-img-element -- user uploads, resized by Storage (lib/storage/image-url.ts)
      <img
        src={image.src}
        srcSet={image.srcSet}
        sizes={image.srcSet && !("square" in size) ? sizes : undefined}
        width={width}
        height={height}
        alt=""
        className={`block w-full bg-line object-cover ${className}`}
      />
    );
  }
  return (
    <div aria-hidden="true" className={`relative flex w-full items-center justify-center overflow-hidden bg-accent/15 ${className}`}>
      <svg viewBox="0 0 120 40" preserveAspectRatio="none" className="absolute inset-0 h-full w-full text-accent/25">
        <path d="M0 30 Q15 10 30 24 T60 20 T90 26 T120 14 V40 H0Z" fill="currentColor" />
        <path d="M0 34 Q20 22 40 30 T80 28 T120 24 V40 H0Z" fill="currentColor" />
      </svg>
      <span className="relative text-2xl font-semibold tracking-tight text-accent">{initials(name)}</span>
    </div>
  );
}

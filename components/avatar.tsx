import { avatarImage, initials } from "@/lib/avatars";

export function Avatar({ path, name, size = 32 }: { path: string | null | undefined; name: string; size?: number }) {
  const image = avatarImage(path, size);
  const style = { width: size, height: size };
  if (image) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- user uploads, resized by Storage (lib/storage/image-url.ts)
      <img
        src={image.src}
        srcSet={image.srcSet}
        alt=""
        width={size}
        height={size}
        style={style}
        className="shrink-0 rounded-full border border-line object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ ...style, fontSize: size * 0.4 }}
      className="inline-flex shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-accent-ink"
    >
      {initials(name)}
    </span>
  );
}

import { initials } from "@/lib/avatars";
import { roomCoverUrl } from "@/lib/rooms/covers";

/**
 * A room's cover picture, or, without one, a pattern in the accent colour with the room's
 * initials, so every card and header keeps the same shape. Decorative: the room's name is next to it.
 */
export function RoomCover({ path, name, className = "" }: { path: string | null; name: string; className?: string }) {
  const url = roomCoverUrl(path);
  if (url) {
    // eslint-disable-next-line @next/next/no-img-element -- user uploads from Storage; no optimiser locally
    return <img src={url} alt="" className={`block w-full bg-line object-cover ${className}`} />;
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

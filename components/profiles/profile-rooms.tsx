import Link from "next/link";
import { RoomCard } from "@/components/rooms/room-card";
import { linkClasses } from "@/components/ui/link";
import type { ProfileRoom } from "@/lib/profiles/queries";

const roleLabels = { owner: "Owner", moderator: "Moderator" } as const;

/**
 * The public rooms a person belongs to, as the directory's cards, with their role where they own or
 * moderate the room. `own`: their own profile, so the empty list says what to do.
 */
export function ProfileRooms({ rooms, own, now }: { rooms: ProfileRoom[]; own: boolean; now: number }) {
  if (rooms.length === 0) {
    return own ? (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-muted">
        You&apos;re not in any open rooms yet.{" "}
        <Link href="/" className={linkClasses}>
          Find a room to join
        </Link>
      </p>
    ) : (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-muted">Not in any open rooms yet.</p>
    );
  }
  return (
    <ul aria-label="Rooms" className="grid gap-3 sm:grid-cols-2">
      {rooms.map(({ room, role }) => (
        <li key={room.id} className="relative" data-testid="profile-room">
          <RoomCard room={room} now={now} />
          {role !== "member" ? (
            <span className="pointer-events-none absolute right-2 top-2 rounded-full bg-raised/95 px-2 py-0.5 text-xs font-semibold text-ink shadow-sm">
              {roleLabels[role]}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

import Link from "next/link";
import { Avatar } from "@/components/avatar";
import { memberCountText } from "@/components/rooms/room-card";
import { RoomCover } from "@/components/rooms/room-cover";
import { buttonClasses } from "@/components/ui/button";
import { newSinceText, type MyRoom } from "@/lib/home/queries";
import { LiveBadge } from "@/components/live/live-badge";

/**
 * The signed-in person's rooms, first on the home page: each with its live session, who is here now
 * and what others posted and said since the person last opened it. One row per room, dense like a
 * chat app's room list, so a dozen fit on a phone's first screens.
 */
export function YourRooms({ rooms }: { rooms: MyRoom[] }) {
  if (rooms.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-line px-5 py-8">
        <p className="font-medium">You haven&apos;t joined a room yet.</p>
        <p className="text-sm text-muted">
          Find one below and join it, or start your own — your rooms and what&apos;s new in them show up here.
        </p>
        <Link href="/rooms/new" className={buttonClasses("primary", "min-h-11")}>
          Create a room
        </Link>
      </div>
    );
  }
  return (
    <ul className="flex flex-col divide-y divide-line overflow-hidden rounded-2xl border border-line bg-raised" aria-label="Your rooms">
      {rooms.map((room) => (
        <li key={room.id}>
          <YourRoomRow room={room} />
        </li>
      ))}
    </ul>
  );
}

function YourRoomRow({ room }: { room: MyRoom }) {
  const news = room.current ? newSinceText(room) : null;
  return (
    <div className="relative flex min-h-16 items-center gap-3 px-3 py-3 hover:bg-surface sm:px-4" data-testid="your-room">
      <div className="w-12 shrink-0 overflow-hidden rounded-lg [&_span]:text-base">
        <RoomCover path={room.coverPath} name={room.name} size={{ square: 48 }} className="aspect-square" />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <Link
            href={room.live ? `/r/${room.slug}/listen` : `/r/${room.slug}`}
            className="min-w-0 truncate font-semibold after:absolute after:inset-0 hover:text-accent"
          >
            {room.name}
          </Link>
          {room.live ? <LiveBadge label={room.live.listeners > 0 ? `Live · ${room.live.listeners} listening` : "Live"} /> : null}
        </div>
        <p className="text-sm text-muted [overflow-wrap:anywhere]">
          {!room.current ? (
            "Open the room to check your pass again"
          ) : news ? (
            <span className="font-medium text-ink" data-testid="new-since">
              {news} <span className="font-normal text-muted">since your last visit</span>
            </span>
          ) : (
            <>
              {memberCountText(room.memberCount)}
              {room.role !== "member" ? ` · ${room.role === "owner" ? "yours" : "you moderate"}` : ""}
              {" · nothing new"}
            </>
          )}
        </p>
      </div>
      {room.hereCount > 0 ? <HereNow room={room} /> : null}
    </div>
  );
}

function HereNow({ room }: { room: MyRoom }) {
  const names = room.here.map((person) => person.displayName);
  const more = room.hereCount - room.here.length;
  const label = `${room.hereCount} here now${names.length ? `: ${names.join(", ")}${more > 0 ? ` and ${more} more` : ""}` : ""}`;
  return (
    <div className="flex shrink-0 items-center gap-1.5 text-xs text-muted" aria-label={label} role="img" data-testid="here-now-count">
      <span className="flex -space-x-2 max-sm:hidden" aria-hidden="true">
        {room.here.slice(0, 3).map((person) => (
          <span key={person.username} className="rounded-full ring-2 ring-raised">
            <Avatar path={person.avatarPath} name={person.displayName} size={24} />
          </span>
        ))}
      </span>
      <span aria-hidden="true" className="whitespace-nowrap">
        {room.hereCount} here
      </span>
    </div>
  );
}

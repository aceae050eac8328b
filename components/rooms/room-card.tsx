import Link from "next/link";
import type { DirectoryRoom } from "@/lib/rooms/queries";
import { GateBadge } from "./gate-badge";
import { RoomCover } from "./room-cover";

export function memberCountText(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "member" : "members"}`;
}

/** One room in the directory: the whole card is the link to the room. */
export function RoomCard({ room }: { room: DirectoryRoom }) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-raised shadow-sm transition hover:border-accent/50">
      <RoomCover path={room.cover_path} name={room.name} className="aspect-[3/1]" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="text-base font-semibold leading-snug [overflow-wrap:anywhere]">
          <Link href={`/r/${room.slug}`} className="after:absolute after:inset-0 group-hover:text-accent">
            {room.name}
          </Link>
        </h3>
        {room.description ? <p className="line-clamp-2 text-sm text-muted [overflow-wrap:anywhere]">{room.description}</p> : null}
        <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-1 text-sm text-muted">
          <span>{memberCountText(room.member_count)}</span>
          <GateBadge gate={room.gate} />
        </div>
      </div>
    </article>
  );
}

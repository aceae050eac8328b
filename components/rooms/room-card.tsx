import Link from "next/link";
import { formatActivity } from "@/components/posts/format";
import type { DirectoryRoom } from "@/lib/rooms/queries";
import { GateBadge } from "./gate-badge";
import { RoomCover } from "./room-cover";
import { LiveBadge } from "@/components/live/live-badge";

export function memberCountText(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "member" : "members"}`;
}

/** "Live now": a listening session is on in the room. */
/**
 * One room in the directory: the whole card is the link to the room. Its activity line shows what
 * the caller may know: members, when someone last posted or commented (only where they may read the
 * room), and "Live now" while a session is on. `now` is when the page was rendered.
 */
export function RoomCard({ room, now }: { room: DirectoryRoom; now?: number }) {
  // eslint-disable-next-line react-hooks/purity -- a Server Component, rendered once per request: "5 min ago" counts from then
  const renderedAt = now ?? Date.now();
  const lastActivity = room.last_activity_at ? formatActivity(room.last_activity_at, renderedAt) : null;
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-raised shadow-sm transition hover:border-accent/50">
      <div className="relative">
        <RoomCover
          path={room.cover_path}
          name={room.name}
          size={{ maxWidth: 610, aspect: 3 }}
          sizes="(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
          className="aspect-[3/1]"
        />
        {room.live ? (
          <span className="absolute left-2 top-2 rounded-full bg-raised/95 shadow-sm">
            <LiveBadge label="Live now" testId="live-now" />
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="text-base font-semibold leading-snug [overflow-wrap:anywhere]">
          <Link href={`/r/${room.slug}`} className="after:absolute after:inset-0 group-hover:text-accent">
            {room.name}
          </Link>
        </h3>
        {room.description ? <p className="line-clamp-2 text-sm text-muted [overflow-wrap:anywhere]">{room.description}</p> : null}
        <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-1 text-sm text-muted">
          <span>{memberCountText(room.member_count)}</span>
          {lastActivity ? (
            <span data-testid="room-activity">
              active <time dateTime={room.last_activity_at ?? undefined}>{lastActivity}</time>
            </span>
          ) : null}
          <GateBadge gate={room.gate} />
        </div>
      </div>
    </article>
  );
}

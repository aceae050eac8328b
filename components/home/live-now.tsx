import Link from "next/link";
import { RoomCover } from "@/components/rooms/room-cover";
import type { LiveSession } from "@/lib/home/queries";
import { LiveBadge } from "@/components/live/live-badge";

/**
 * Sessions on right now: the room, what is playing, who hosts and how many listen. A member goes
 * straight to the session; anyone else to the room, where they can join (or sign in) first.
 */
export function LiveNow({ sessions, signedIn }: { sessions: LiveSession[]; signedIn: boolean }) {
  if (sessions.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-sm text-muted">
        {signedIn
          ? "Nobody is listening together right now — start a session from one of your rooms and others can join you."
          : "Nobody is listening together right now. When a room starts a session, it shows up here."}
      </p>
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {sessions.map((session) => (
        <li
          key={session.sessionId}
          className="relative flex min-w-0 gap-3 rounded-2xl border border-line bg-raised p-3 shadow-sm hover:border-accent/50"
          data-testid="live-session"
        >
          <div className="w-16 shrink-0 overflow-hidden rounded-xl [&_span]:text-lg">
            <RoomCover path={session.room.coverPath} name={session.room.name} size={{ square: 64 }} className="aspect-square" />
          </div>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <div className="flex items-center gap-2">
              <LiveBadge />
              {session.listeners > 0 ? <span className="text-xs text-muted">{session.listeners} listening</span> : null}
            </div>
            <Link
              href={session.isMember ? `/r/${session.room.slug}/listen` : `/r/${session.room.slug}`}
              className="truncate font-semibold after:absolute after:inset-0 hover:text-accent"
            >
              {session.room.name}
            </Link>
            <p className="truncate text-sm text-muted">
              {session.post ? (
                <>
                  {session.playing ? "Playing" : "Paused on"} <span className="text-ink">{session.post.title}</span>
                </>
              ) : (
                "Picking the first track"
              )}
              {session.hostName ? ` · hosted by ${session.hostName}` : ""}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

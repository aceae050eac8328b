import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { LazySessionBanner, LazyStartSessionForm } from "@/components/rooms/member-parts";

export interface ListenTogetherProps {
  room: { id: string; slug: string };
  signedIn: boolean;
  /** The person's role in the room; null for visitors and people who have not joined. */
  role: "owner" | "moderator" | "member" | null;
  /** Who may start sessions here (rooms.session_starters). */
  starters: "moderators" | "members";
  /** A session is on (live and hosted recently). */
  live: boolean;
}

/** Whether this role may start a session in a room whose owner chose `starters`. */
export const mayStartSession = (role: ListenTogetherProps["role"], starters: ListenTogetherProps["starters"]): boolean =>
  role === "owner" || role === "moderator" || (role === "member" && starters === "members");

/**
 * The room's "listen together" box: join the session that is on, start one (for who may), or —
 * for visitors and people who have not joined — what it takes.
 */
export function ListenTogether({ room, signedIn, role, starters, live }: ListenTogetherProps) {
  return (
    <section aria-labelledby="listen-together" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <h2 id="listen-together" className="text-base font-semibold">
        Listen together
      </h2>
      {role === null ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-sm">
            {live ? "A listening session is on in this room. " : null}
            Join the room to listen together.
          </p>
          {signedIn ? null : (
            <Link href={`/login?next=${encodeURIComponent(`/r/${room.slug}`)}`} className={buttonClasses("secondary")}>
              Sign in
            </Link>
          )}
        </div>
      ) : live ? (
        <LazySessionBanner roomId={room.id} slug={room.slug} />
      ) : mayStartSession(role, starters) ? (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-muted">Play the room&apos;s posts in sync with everyone here, with a shared queue.</p>
          <LazyStartSessionForm roomId={room.id} slug={room.slug} />
        </div>
      ) : (
        <p className="text-sm text-muted">Nobody is listening together right now. The owner and moderators start sessions in this room.</p>
      )}
    </section>
  );
}

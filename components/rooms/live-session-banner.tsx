import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { LazySessionBanner } from "./member-parts";

/**
 * "Listening together now", at the top of a room while a session is on: members see how many listen
 * and join it; others are told what it takes.
 */
export function LiveSessionBanner({
  room,
  isMember,
  signedIn,
}: {
  room: { id: string; slug: string };
  isMember: boolean;
  signedIn: boolean;
}) {
  return (
    <div className="rounded-xl border border-success/40 bg-success/10 px-4 py-3 [&_a]:min-h-11" data-testid="live-session-banner">
      {isMember ? (
        <LazySessionBanner roomId={room.id} slug={room.slug} />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm">
            <span aria-hidden="true" className="inline-block h-2.5 w-2.5 shrink-0 rounded-full bg-success" />
            <span>A listening session is on in this room. Join the room to listen together.</span>
          </p>
          {signedIn ? null : (
            <Link href={`/login?next=${encodeURIComponent(`/r/${room.slug}`)}`} className={buttonClasses("secondary", "min-h-11")}>
              Sign in
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

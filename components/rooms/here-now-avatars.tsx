"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { Avatar } from "@/components/avatar";
import { LiveIndicator } from "@/components/live/room-live";
import { Alert } from "@/components/ui/alert";
import { refusedMessage } from "@/lib/realtime/room-messages";
import { type PresenceSelf, useHereNow } from "@/lib/realtime/use-room-channel";

const shownAvatars = 5;

/**
 * Who has the room open, as a row of avatars in the room's header ("+3" past five; names for screen
 * readers and on hover), with the live connection's state. Shares the page's one room connection
 * with the feed.
 */
export function HereNowAvatars({ room, self }: { room: { id: string; slug: string; gated: boolean }; self: PresenceSelf | null }) {
  const router = useRouter();
  const { people, status, ended } = useHereNow(room.id, self, null, { userId: self?.user_id ?? null, gated: room.gated });
  // A public room stays readable: show the page as it now is for a visitor. A gated one says why it stopped.
  useEffect(() => {
    if (ended && !room.gated) router.refresh();
  }, [ended, room.gated, router]);
  return (
    <section aria-label="Here now" className="flex min-h-11 flex-wrap items-center gap-x-3 gap-y-2 text-sm text-muted">
      {ended && room.gated ? (
        <Alert tone="error">
          {ended}{" "}
          <a href={`/r/${room.slug}`} className="font-medium underline underline-offset-2">
            Reload the room
          </a>
        </Alert>
      ) : status === "refused" ? (
        <span>{refusedMessage}</span>
      ) : people.length ? (
        <span className="flex items-center gap-2">
          <ul className="flex -space-x-2" aria-label="Members here now">
            {people.slice(0, shownAvatars).map((person) => (
              <li
                key={person.userId}
                title={person.playing ? `${person.displayName} — playing ${person.playing.title}` : person.displayName}
                className={`rounded-full ring-2 ${person.playing ? "ring-success" : "ring-surface"}`}
              >
                <Avatar path={person.avatarPath} name={person.displayName} size={28} />
                <span className="sr-only">
                  {person.displayName}
                  {person.isSelf ? " (you)" : ""}
                  {person.playing ? ` — Playing ${person.playing.title}` : ""}
                </span>
              </li>
            ))}
            {people.slice(shownAvatars).map((person) => (
              <li key={person.userId} className="sr-only">
                {person.displayName}
                {person.isSelf ? " (you)" : ""}
                {person.playing ? ` — Playing ${person.playing.title}` : ""}
              </li>
            ))}
          </ul>
          <span aria-hidden="true">
            {people.length > shownAvatars ? `+${people.length - shownAvatars} ` : ""}
            here now
          </span>
        </span>
      ) : null}
      <LiveIndicator status={status} />
    </section>
  );
}

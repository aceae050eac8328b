"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Avatar } from "@/components/avatar";
import { Alert } from "@/components/ui/alert";
import { usePlayback } from "@/components/moments/playback";
import type { NowPlaying } from "@/lib/realtime/presence";
import type { RoomChannelStatus } from "@/lib/realtime/room-channel";
import { refusedMessage } from "@/lib/realtime/room-messages";
import { type PresenceSelf, useHereNow } from "@/lib/realtime/use-room-channel";

export interface RoomLiveProps {
  room: { id: string; slug: string; gated: boolean };
  /** The signed-in member, shared as present; null for visitors (they see who is here, unseen). */
  self: PresenceSelf | null;
  /** On a post's page (inside its playback provider): the post, shared as "playing" while its player plays. */
  post?: NowPlaying;
}

/** "Here now" for a room: who has it open and what each is playing, with the live connection's state. */
export function RoomLive({ room, self, post }: RoomLiveProps) {
  const isPlaying = usePlayback((snapshot) => snapshot.playing);
  const playing = post && isPlaying ? post : null;
  const router = useRouter();
  const { people, status, ended } = useHereNow(room.id, self, playing, { userId: self?.user_id ?? null, gated: room.gated });
  // A public room stays readable: show the page as it now is for a visitor (Join instead of the composer).
  // A gated one keeps what it showed, frozen, until the person reloads.
  useEffect(() => {
    if (ended && !room.gated) router.refresh();
  }, [ended, room.gated, router]);
  return (
    <section aria-labelledby="here-now" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="here-now" className="text-base font-semibold">
          Here now
        </h2>
        <LiveIndicator status={status} />
      </div>
      {ended ? (
        <Alert tone="error">
          {ended}
          {room.gated ? (
            <>
              {" "}
              <a href={`/r/${room.slug}`} className="font-medium underline underline-offset-2">
                Reload the room
              </a>
            </>
          ) : null}
        </Alert>
      ) : status === "refused" ? (
        <Alert>{refusedMessage}</Alert>
      ) : null}
      {ended && room.gated ? null : people.length === 0 ? (
        <p className="text-sm text-muted">No members here right now.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Members here now">
          {people.map((person) => (
            <li key={person.userId} className="flex min-w-0 items-center gap-2 text-sm">
              <Avatar path={person.avatarPath} name={person.displayName} size={28} />
              <span className="flex min-w-0 flex-col sm:flex-row sm:items-baseline sm:gap-2">
                <span className="truncate font-medium">
                  {person.displayName}
                  {person.isSelf ? <span className="font-normal text-muted"> (you)</span> : null}
                </span>
                {person.playing ? (
                  <span className="truncate text-muted">
                    <span aria-hidden="true">▶ </span>
                    Playing{" "}
                    <Link href={`/r/${room.slug}/p/${person.playing.post_id}`} className="underline-offset-2 hover:underline">
                      {person.playing.title}
                    </Link>
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const labels: Record<RoomChannelStatus, string> = {
  joining: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  refused: "Not live",
  closed: "Not live",
  ended: "Not live",
};

/** How long a drop lasts before it is shown (and announced): brief blips stay quiet. */
const quietMs = 1_500;

/** "Live" / "Reconnecting…", announced politely when it changes. */
export function LiveIndicator({ status }: { status: RoomChannelStatus }) {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (status !== "reconnecting") return;
    const timer = setTimeout(() => setLate(true), quietMs);
    return () => {
      clearTimeout(timer);
      setLate(false);
    };
  }, [status]);
  const shown = status === "reconnecting" && !late ? "live" : status;
  const tone = shown === "live" ? "bg-success" : shown === "reconnecting" || shown === "joining" ? "bg-amber-500" : "bg-muted";
  return (
    <p role="status" aria-live="polite" className="flex items-center gap-1.5 text-sm text-muted" data-live-status={shown}>
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${tone}`} />
      {labels[shown]}
    </p>
  );
}

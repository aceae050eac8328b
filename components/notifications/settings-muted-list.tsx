"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { linkClasses } from "@/components/ui/link";
import { networkMessage } from "@/lib/auth/messages";
import type { MutedPlace } from "@/lib/notifications/settings";
import { unmuteById } from "@/lib/notifications/settings-actions";
import { fail } from "@/lib/result";

/**
 * The rooms and threads a person muted, each with a link while they may still read it and an
 * "Unmute". An unmuted entry leaves the list at once; the page's list is read again by the action.
 */
export function MutedPlacesList({ places }: { places: MutedPlace[] }) {
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<{ id: string; message: string } | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [, startTransition] = useTransition();
  const shown = places.filter((place) => !gone.has(place.id));

  if (!shown.length) {
    return <p className="text-sm text-muted">You haven&apos;t muted any room or thread. Mute one from its page when it gets too busy.</p>;
  }
  return (
    <ul className="flex flex-col divide-y divide-line" aria-label="Muted rooms and threads">
      {shown.map((place) => {
        const what = place.kind === "room" ? "Room" : "Thread";
        const name = place.name ?? (place.kind === "room" ? "A room that no longer exists" : "A post you can no longer read");
        return (
          <li key={place.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2" data-muted={place.kind}>
            <div className="flex min-w-0 flex-col">
              <span className="text-xs uppercase tracking-wide text-muted">{what}</span>
              {place.href ? (
                <Link href={place.href} className={`[overflow-wrap:anywhere] ${linkClasses}`}>
                  {name}
                </Link>
              ) : (
                <span className="text-muted [overflow-wrap:anywhere]">{name}</span>
              )}
              {place.kind === "post" && place.roomName ? <span className="text-sm text-muted">in {place.roomName}</span> : null}
              {error?.id === place.id ? (
                <p role="alert" className="text-sm text-danger">
                  {error.message}
                </p>
              ) : null}
            </div>
            <button
              type="button"
              className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium hover:bg-line/60 disabled:opacity-60 sm:min-h-9"
              disabled={pendingId === place.id}
              aria-label={`Unmute ${place.kind === "room" ? "the room" : "the thread"} ${name}`}
              onClick={() => {
                setError(null);
                setPendingId(place.id);
                startTransition(async () => {
                  const answer = await unmuteById(place.id).catch(() => fail(networkMessage));
                  setPendingId(null);
                  if (answer.ok) setGone((current) => new Set(current).add(place.id));
                  else setError({ id: place.id, message: answer.error });
                });
              }}
            >
              {pendingId === place.id ? "Unmuting…" : "Unmute"}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

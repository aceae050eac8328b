"use client";

import { useState, useSyncExternalStore, useTransition } from "react";
import { networkMessage } from "@/lib/auth/messages";
import type { MuteTarget } from "@/lib/notifications/settings";
import { setNotificationMute } from "@/lib/notifications/settings-actions";
import { fail } from "@/lib/result";

const noSubscription = () => () => {};

/**
 * A quiet toggle: a ghost button whose label says what pressing it does ("Mute this thread" /
 * "Unmute this thread"), with "Muted" beside it while it holds, and a polite status line for screen
 * readers when it changes. The state is the page's own once read: it changes only when the action
 * says it did, and a refusal shows next to it in words.
 */
export function MuteToggle({ target, initialMuted }: { target: MuteTarget; initialMuted: boolean }) {
  // Its code arrives after first paint: until then the server's button is disabled, so a press is
  // never swallowed by a button that cannot act yet.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [muted, setMuted] = useState(initialMuted);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  const [pending, startTransition] = useTransition();
  const room = target.roomId !== undefined;
  const label = room ? "Mute notifications from this room" : "Mute this thread";

  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid={room ? "mute-room" : "mute-thread"}>
      {muted ? (
        <span className="inline-flex items-center gap-1 text-muted">
          <span aria-hidden="true">🔕</span> Muted
        </span>
      ) : null}
      <button
        type="button"
        disabled={pending || !ready}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-3 font-medium text-muted hover:bg-line/60 hover:text-ink disabled:opacity-60 sm:min-h-9"
        onClick={() => {
          setError(null);
          const next = !muted;
          startTransition(async () => {
            const answer = await setNotificationMute({ ...target, muted: next }).catch(() => fail(networkMessage));
            if (answer.ok) {
              setMuted(answer.data.muted);
              setAnnounce(
                answer.data.muted
                  ? room
                    ? "Muted: this room won't notify you."
                    : "Muted: this thread won't notify you."
                  : room
                    ? "Unmuted: this room notifies you again."
                    : "Unmuted: this thread notifies you again.",
              );
            } else setError(answer.error);
          });
        }}
      >
        {muted ? null : <span aria-hidden="true">🔔</span>}
        {pending ? (muted ? "Unmuting…" : "Muting…") : muted ? "Unmute" : label}
        {muted && !pending ? <span className="sr-only">{room ? " notifications from this room" : " this thread"}</span> : null}
      </button>
      <span role="status" className="sr-only">
        {announce}
      </span>
      {error ? (
        <p role="alert" className="w-full text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

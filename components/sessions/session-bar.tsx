"use client";

import { Button } from "@/components/ui/button";
import { personName } from "@/lib/people/names";
import type { SessionPost } from "@/lib/sessions/types";
import { isDjTurns } from "@/lib/sessions/turns";
import { useListeningSession } from "@/lib/sessions/use-listening-session";

const statusText = {
  joining: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  refused: "Not live",
  closed: "Not live",
} as const;

/**
 * The session at a glance: what plays, who hosts, how many listen, the live connection; following
 * the host or listening on one's own; ending the session for who may.
 */
export function SessionBar({ post }: { post: SessionPost | null }) {
  const { listeners, hostId, isHost, following, actions, canEnd, status, playback, session } = useListeningSession();
  const host = listeners.find((listener) => listener.user_id === hostId);
  const hostText = isDjTurns(session) ? djText(isHost, host) : hostedText(isHost, host, hostId);
  return (
    <section aria-labelledby="now-playing" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id="now-playing" className="text-sm font-medium text-muted">
            {playback?.playing ? "Now playing" : post ? "Paused" : "Nothing playing"}
          </h2>
          <p className="text-lg font-semibold [overflow-wrap:anywhere]" data-testid="now-playing-title">
            {post?.title ?? "—"}
          </p>
        </div>
        <p role="status" className="rounded-full border border-line px-2.5 py-0.5 text-xs text-muted" aria-label="Session connection">
          {statusText[status]}
        </p>
      </div>
      <p className="text-sm">
        <span>{hostText}</span>
        <span aria-hidden="true"> · </span>
        <span>{listeners.length === 1 ? "1 listening" : `${listeners.length} listening`}</span>
      </p>
      <div className="flex flex-wrap gap-2">
        {isHost ? null : following ? (
          <Button variant="secondary" onClick={actions.listenAlone}>
            Listen on my own
          </Button>
        ) : (
          <Button onClick={actions.follow}>Follow host</Button>
        )}
        {canEnd ? (
          <Button variant="danger" onClick={() => void actions.end()}>
            End session
          </Button>
        ) : null}
      </div>
    </section>
  );
}

type Listener = ReturnType<typeof useListeningSession>["listeners"][number];

function hostedText(isHost: boolean, host: Listener | undefined, hostId: string | null): string {
  if (isHost) return "You're the host";
  if (host) return `Hosted by ${personName(host).name}`;
  return hostId ? "The host has stepped away — someone here takes over in a moment" : "Nobody is hosting";
}

/** In DJ turns the host is whoever's turn it is. */
function djText(isHost: boolean, dj: Listener | undefined): string {
  if (isHost) return "Your turn";
  return dj ? `${personName(dj).name}'s turn` : "Waiting for the next DJ";
}

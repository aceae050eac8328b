"use client";

import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { personName } from "@/lib/people/names";
import { type SessionPost, type SessionRow, type SessionActionResult } from "@/lib/sessions/types";
import { timeLeftText, turnActions, turnLengthText, turnsView } from "@/lib/sessions/turns";
import { useListeningSession } from "@/lib/sessions/use-listening-session";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { PostSelect } from "./post-select";

/** Runs one turn function at a time; its refusal is kept in words until the next. */
export function useTurnAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (action: (data: Awaited<ReturnType<typeof loadSupabaseData>>) => Promise<SessionActionResult<SessionRow>>) => {
      setBusy(true);
      setError(null);
      const answer = await loadSupabaseData()
        .then(action)
        .catch((): SessionActionResult<SessionRow> => ({
          ok: false,
          error: "We couldn't reach Cuepoint — check your connection and try again.",
        }));
      setBusy(false);
      if (!answer.ok) setError(answer.error);
      return answer.ok;
    },
    [],
  );
  return { busy, error, run };
}

/**
 * DJ turns: whose turn it is and how long it has left, the waitlist in order (each DJ's pick), and
 * the person's own part — join with a post, change it, leave. Moderators and the owner move and
 * remove DJs. When a turn's time is up, every page asks Postgres to pass it (it passes once).
 */
export function WaitlistPanel({ posts, turnMaxSeconds }: { posts: SessionPost[]; turnMaxSeconds: number }) {
  const { session, self, listeners, serverNow, actions, busy: sessionBusy } = useListeningSession();
  const view = useMemo(() => turnsView(session, self.user_id), [session, self.user_id]);
  const { busy, error, run } = useTurnAction();
  const [choice, setChoice] = useState("");
  const titles = useMemo(() => new Map(posts.map((post) => [post.id, post.title])), [posts]);
  const names = useMemo(
    () => new Map(listeners.map((listener) => [listener.user_id, listener.isSelf ? "You" : personName(listener).name])),
    [listeners],
  );
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? "A member") : "Nobody");
  const titleOf = (id: string | null) => (id ? (titles.get(id) ?? "A post") : null);
  const canModerate = self.role === "owner" || self.role === "moderator";
  const sessionId = session?.id ?? null;
  const turn = session?.turn ?? 0;
  const leftMs = useTimeLeft(view.endsAtMs, serverNow);

  // The turn's time is up: ask Postgres to pass it (spread over a second or two, so the pages do not all ask at once).
  useEffect(() => {
    if (!sessionId || view.endsAtMs === null) return;
    const wait = Math.max(0, view.endsAtMs - serverNow()) + 300 + Math.random() * 1500;
    const timer = setTimeout(() => void loadSupabaseData().then((data) => turnActions.endIfOver(data, sessionId, turn)), wait);
    return () => clearTimeout(timer);
  }, [sessionId, turn, view.endsAtMs, serverNow]);

  if (!session || !sessionId) return null;
  const playingTitle = titleOf(session.post_id);
  const pick = view.place !== null ? (view.waitlist[view.place - 1]?.postId ?? null) : null;

  return (
    <section
      aria-labelledby="dj-turns-heading"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-raised p-4 sm:p-5"
      data-dj-turns=""
    >
      <h2 id="dj-turns-heading" className="text-base font-semibold">
        DJ turns
      </h2>
      <div className="flex flex-col gap-1" aria-live="polite">
        {view.djId ? (
          <p className="text-sm" data-turn-now="">
            <span className="font-medium">{view.isDj ? "Your turn" : `${nameOf(view.djId)}'s turn`}</span>
            {playingTitle ? <> — {playingTitle}</> : null}
            {leftMs !== null ? <span className="text-muted"> · {timeLeftText(leftMs)} left</span> : null}
          </p>
        ) : (
          <p className="text-sm" data-turn-now="">
            Nobody is playing — join the waitlist with a post to take the next turn.
          </p>
        )}
        <p className="text-sm text-muted" data-turn-next="">
          {view.next
            ? `Up next: ${nameOf(view.next.userId)}${titleOf(view.next.postId) ? ` — ${titleOf(view.next.postId)}` : ""}`
            : "Nobody is up next yet."}
        </p>
      </div>

      {view.waitlist.length ? (
        <ol aria-label="Waitlist" className="flex flex-col gap-2">
          {view.waitlist.map((entry, index) => {
            const name = nameOf(entry.userId);
            return (
              <li key={entry.userId} className="flex min-w-0 items-center gap-2" data-waitlist-entry={entry.userId}>
                <span aria-hidden="true" className="w-6 shrink-0 text-right text-sm tabular-nums text-muted">
                  {index + 1}.
                </span>
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate text-sm font-medium" data-waitlist-name="">
                    {name}
                  </span>
                  <span className="truncate text-xs text-muted">{titleOf(entry.postId) ?? "Picking a post"}</span>
                </span>
                {canModerate ? (
                  <>
                    <IconButton
                      label={`Move ${name} up`}
                      disabled={busy || index === 0}
                      onClick={() => void run((data) => turnActions.move(data, sessionId, entry.userId, index))}
                    >
                      ↑
                    </IconButton>
                    <IconButton
                      label={`Move ${name} down`}
                      disabled={busy || index === view.waitlist.length - 1}
                      onClick={() => void run((data) => turnActions.move(data, sessionId, entry.userId, index + 2))}
                    >
                      ↓
                    </IconButton>
                    <IconButton
                      label={`Take ${name} off the waitlist`}
                      disabled={busy}
                      onClick={() => void run((data) => turnActions.remove(data, sessionId, entry.userId))}
                    >
                      ✕
                    </IconButton>
                  </>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-muted">The waitlist is empty.</p>
      )}

      {view.isDj ? (
        <div className="flex flex-col items-start gap-2">
          <p className="text-sm text-muted">
            You&apos;re playing. When your post ends (or you end your turn), the turn passes on and you go to the back of the list.
          </p>
          {/* "Next" ends the turn (the DJ goes to the back of the list to pick again). */}
          <Button variant="ghost" disabled={busy || sessionBusy} onClick={() => void actions.next()}>
            End my turn
          </Button>
        </div>
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const postId = choice || pick;
            if (!postId) return;
            void run((data) =>
              view.place === null ? turnActions.join(data, sessionId, postId) : turnActions.pick(data, sessionId, postId),
            ).then((ok) => ok && setChoice(""));
          }}
        >
          <div className="flex w-full min-w-0 sm:w-auto sm:flex-1">
            <PostSelect
              label={view.place === null ? "Your post" : "Your next post"}
              none="Choose a post"
              posts={posts}
              value={choice || pick || ""}
              onChange={setChoice}
            />
          </div>
          {view.place === null ? (
            <Button type="submit" variant="secondary" disabled={busy || !choice}>
              Join the waitlist
            </Button>
          ) : (
            <>
              <Button type="submit" variant="secondary" disabled={busy || !choice || choice === pick}>
                Save pick
              </Button>
              <Button variant="ghost" disabled={busy} onClick={() => void run((data) => turnActions.leave(data, sessionId))}>
                Leave the waitlist
              </Button>
            </>
          )}
          <p className="w-full text-sm text-muted">
            {view.place !== null ? `You're number ${view.place} on the waitlist. ` : ""}
            Each DJ plays one post a turn, up to {turnLengthText(turnMaxSeconds)}.
          </p>
        </form>
      )}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}

const everySecond = (onTick: () => void) => {
  const timer = setInterval(onTick, 1000);
  return () => clearInterval(timer);
};
const never = () => () => {};

/**
 * Time left until `endsAtMs` (server clock), every second; null when there is no end, and in the
 * server's render and the hydration that follows it (the two would read different seconds).
 */
function useTimeLeft(endsAtMs: number | null, serverNow: () => number): number | null {
  const second = useSyncExternalStore(
    endsAtMs === null ? never : everySecond,
    () => Math.floor(serverNow() / 1000),
    () => null,
  );
  return endsAtMs === null || second === null ? null : Math.max(0, endsAtMs - serverNow());
}

function IconButton({ label, children, ...props }: { label: string; children: string; disabled?: boolean; onClick: () => void }) {
  return (
    <Button variant="ghost" className="min-h-9 w-9 shrink-0 px-0 py-1 sm:px-0" aria-label={label} title={label} {...props}>
      <span aria-hidden="true">{children}</span>
    </Button>
  );
}

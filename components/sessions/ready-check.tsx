"use client";

import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { Button } from "@/components/ui/button";
import { personName } from "@/lib/people/names";
import {
  type Awaited,
  awaitedOf,
  checksBeforePlay,
  namesText,
  readyCheckWaits,
  readyNearSeconds,
  type ReadySettings,
  startedText,
  waitingText,
} from "@/lib/sessions/ready-check";
import { markReady, readReadiness, setReadyCheck } from "@/lib/sessions/ready-check-rpc";
import { ReadyCheckStore } from "@/lib/sessions/ready-check-store";
import type { SessionPost } from "@/lib/sessions/types";
import {
  type ListeningSessionActions,
  type ListeningSessionValue,
  useListeningSession,
  WithSessionActions,
} from "@/lib/sessions/use-listening-session";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";

// The ready check on the session page (lib/sessions/ready-check.ts holds its rules): every
// follower's page says when its player has buffered where the session waits; the host's page puts
// play, and the moves to a new track, through the check, shows who is ready and who is still
// loading, and says who play started without.

const ReadyCheckContext = createContext<ReadyCheckStore | null>(null);

const settingsOf = (session: ListeningSessionValue): ReadySettings => ({
  seconds: session.session?.ready_check_seconds ?? 0,
  eachTrack: session.session?.ready_check_each_track ?? false,
});

const nameOf = (listener: ListeningSessionValue["listeners"][number]) => personName(listener).name;

/**
 * Runs the host's ready check for everything inside: `play` at a track's start waits for everyone
 * following (or the host's wait), and with the check on, a move to a new track (the queue's next,
 * a post played now, the end of a track) loads it paused and waits the same way — when the session
 * starts, and before every track if the host asked for that.
 */
export function ReadyCheck({ children }: { children: ReactNode }) {
  const session = useListeningSession();
  const latest = useRef(session);
  useEffect(() => {
    latest.current = session;
  });
  const [store] = useState(() => new ReadyCheckStore({ now: () => Date.now() }));
  useEffect(() => {
    store.setStart((target) => {
      const s = latest.current;
      if (s.isHost && s.playback?.postId === target.postId && !s.playback.playing) void s.actions.play();
    });
    return () => store.stop();
  }, [store]);
  const { watchReady, isHost, status, listeners, playback } = session;
  const sessionId = session.session?.id ?? null;
  const settings = useMemo(
    () => ({ seconds: session.session?.ready_check_seconds ?? 0, eachTrack: session.session?.ready_check_each_track ?? false }),
    [session.session?.ready_check_seconds, session.session?.ready_check_each_track],
  );

  useEffect(() => watchReady((mark) => store.receive(mark)), [watchReady, store]);
  // What was said while this page was away (or before it hosted): read again whenever the channel is live again.
  useEffect(() => {
    if (!isHost || !sessionId || status !== "live") return;
    let live = true;
    void loadSupabaseData()
      .then((data) => readReadiness(data, sessionId))
      .then((marks) => live && store.receive(...marks))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [isHost, sessionId, status, store]);
  useEffect(() => store.setAwaited(awaitedOf(listeners, nameOf)), [listeners, store]);
  useEffect(() => {
    store.setPreview(
      isHost && playback?.postId && checksBeforePlay(settings, playback)
        ? { postId: playback.postId, positionSeconds: playback.positionSeconds }
        : null,
    );
    const { check } = store.getSnapshot();
    // The session went elsewhere while waiting (another post, a seek, another host, someone played it): stop waiting.
    if (
      check.phase === "waiting" &&
      (!isHost ||
        !playback ||
        playback.playing ||
        playback.postId !== check.target.postId ||
        Math.abs(playback.positionSeconds - check.target.positionSeconds) > readyNearSeconds)
    )
      store.cancel();
    if (check.phase === "started" && playback?.postId !== check.target.postId) store.dismiss();
  }, [store, isHost, playback, settings]);

  const actions = useMemo<Partial<ListeningSessionActions>>(() => {
    const waitMs = (s: ListeningSessionValue) => settingsOf(s).seconds * 1000;
    /** A move to a new track is checked when the check is on and it starts the session, or before every track. */
    const checksMove = (s: ListeningSessionValue) =>
      s.isHost && settingsOf(s).seconds > 0 && (settingsOf(s).eachTrack || !s.playback?.postId);
    const loadThenCheck = async (s: ListeningSessionValue, postId: string) => {
      store.cancel();
      const ok = await s.actions.load(postId);
      if (ok) store.begin({ postId, positionSeconds: 0 }, waitMs(s));
      return ok;
    };
    return {
      play: () => {
        const s = latest.current;
        if (store.getSnapshot().check.phase === "waiting") {
          store.startAnyway();
          return Promise.resolve(true);
        }
        if (s.isHost && s.playback?.postId && checksBeforePlay(settingsOf(s), s.playback)) {
          store.begin({ postId: s.playback.postId, positionSeconds: s.playback.positionSeconds }, waitMs(s));
          return Promise.resolve(true);
        }
        return s.actions.play();
      },
      next: () => {
        const s = latest.current;
        const nextId = s.queue.find((entry) => entry.status === "queued" && entry.post_id !== s.playback?.postId)?.post_id;
        // Everyone has the next track ready already (a follower's player keeps it loaded): straight on, gapless.
        if (!nextId || !checksMove(s) || store.allReady({ postId: nextId, positionSeconds: 0 })) {
          store.cancel();
          return s.actions.next();
        }
        return loadThenCheck(s, nextId);
      },
      playPost: (postId) => {
        const s = latest.current;
        if (!checksMove(s)) {
          store.cancel();
          return s.actions.playPost(postId);
        }
        return loadThenCheck(s, postId);
      },
    };
  }, [store]);

  return (
    <ReadyCheckContext.Provider value={store}>
      <WithSessionActions actions={actions}>{children}</WithSessionActions>
    </ReadyCheckContext.Provider>
  );
}

const noStore = () => () => {};
const idleSnapshot = { check: { phase: "idle" as const }, ready: [], waiting: [], secondsLeft: 0 };

function useReadyCheckSnapshot() {
  const store = useContext(ReadyCheckContext);
  return useSyncExternalStore(
    store ? store.subscribe : noStore,
    () => (store ? store.getSnapshot() : idleSnapshot),
    () => idleSnapshot,
  );
}

/** The host's page is waiting for listeners to be ready (its play button waits too). */
export function useReadyCheckWaiting(): boolean {
  return useReadyCheckSnapshot().check.phase === "waiting";
}

function People({ label, people }: { label: string; people: Awaited[] }) {
  if (!people.length) return null;
  return (
    <p className="text-sm text-muted [overflow-wrap:anywhere]">
      <span className="font-medium text-ink">{label}:</span> {namesText(people)}
    </p>
  );
}

/**
 * The host's view of the check: while it waits, who is still loading, how long it will wait at most
 * and "Start anyway"; before play, who is ready for it; after a start without someone, who.
 */
export function ReadyCheckStatus() {
  const store = useContext(ReadyCheckContext);
  const { check, ready, waiting, secondsLeft } = useReadyCheckSnapshot();
  if (check.phase === "waiting") {
    return (
      <div className="flex flex-col items-start gap-2 rounded-xl border border-line bg-surface p-3" data-ready-check="waiting">
        <p className="flex flex-wrap items-baseline gap-x-2 font-medium">
          <span role="status">{waitingText(waiting)}</span>
          <span className="text-sm font-normal whitespace-nowrap tabular-nums text-muted">starting in {secondsLeft} s at the latest</span>
        </p>
        {waiting.length > 1 ? <People label="Still loading" people={waiting} /> : null}
        <People label="Ready" people={ready} />
        <Button onClick={() => store?.startAnyway()}>Start anyway</Button>
      </div>
    );
  }
  const started = startedText(check);
  if (started) {
    return (
      <p role="status" className="text-sm font-medium [overflow-wrap:anywhere]" data-ready-check="started">
        {started}
      </p>
    );
  }
  if (!ready.length && !waiting.length) return null;
  return (
    <div className="flex flex-col gap-1" data-ready-check="preview">
      <People label="Ready" people={ready} />
      <People label="Still loading" people={waiting} />
    </div>
  );
}

const waitLabel = (seconds: number) => (seconds === 0 ? "Don't wait" : `Up to ${seconds} s`);

/** The host's choice: how long play waits for everyone, and whether before every track. Kept with the session. */
export function ReadyCheckSettings() {
  const session = useListeningSession();
  const stored = settingsOf(session);
  const [pending, setPending] = useState<ReadySettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = pending ?? stored;
  const sessionId = session.session?.id;
  const save = async (next: ReadySettings) => {
    if (!sessionId) return;
    setPending(next);
    setError(null);
    const answer = await setReadyCheck(await loadSupabaseData(), { sessionId, seconds: next.seconds, eachTrack: next.eachTrack }).catch(
      () => null,
    );
    setPending(null);
    if (!answer?.ok) setError(answer?.error ?? "Couldn't save the ready check — try again.");
  };
  return (
    <fieldset className="flex flex-wrap items-end gap-x-4 gap-y-2">
      <legend className="mb-1 text-sm font-medium">Ready check</legend>
      <label className="flex items-center gap-2 text-sm">
        <span>Wait for everyone</span>
        <select
          value={String(shown.seconds)}
          onChange={(event) => void save({ ...shown, seconds: Number(event.target.value) })}
          className="min-h-10 rounded-lg border border-line bg-raised px-2 text-base"
        >
          {readyCheckWaits.map((seconds) => (
            <option key={seconds} value={String(seconds)}>
              {waitLabel(seconds)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-h-10 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={shown.eachTrack}
          disabled={shown.seconds === 0}
          onChange={(event) => void save({ ...shown, eachTrack: event.target.checked })}
          className="size-4 accent-[var(--color-accent)]"
        />
        <span>Before every track</span>
      </label>
      {error ? (
        <p role="alert" className="w-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function sameSource(media: HTMLMediaElement, src: string): boolean {
  const current = media.currentSrc || media.src || media.getAttribute("src") || "";
  return current === src || decodeURI(current) === decodeURI(src);
}

/** After a mark that did not get through, the page tries again this much later. */
const retryMs = 5_000;

/**
 * A follower's page says when its player is ready: the session waits (paused) on this post, the
 * player has it, at the session's position, with data ahead (HAVE_FUTURE_DATA). Once per post and
 * position; the player is asked to buffer ahead meanwhile.
 */
export function ReadyAnnouncer({ post }: { post: SessionPost | null }) {
  const session = useListeningSession();
  const store = usePlaybackStore();
  const latest = useRef({ session, post });
  useEffect(() => {
    latest.current = { session, post };
  });
  useEffect(() => {
    if (!store) return;
    let said = "";
    let sending = false;
    let retryAt = 0;
    const send = (sessionId: string, postId: string, positionSeconds: number, done: () => void) => {
      sending = true;
      void loadSupabaseData()
        .then((data) => markReady(data, { sessionId, postId, positionSeconds }))
        .then((answer) => (answer.ok ? done() : (retryAt = Date.now() + retryMs)))
        .catch(() => (retryAt = Date.now() + retryMs))
        .finally(() => (sending = false));
    };
    // The next track's file waiting loaded in an element of its own (./upload-decks.tsx): ready for it, at its start.
    const saidDecks = new Set<string>();
    const waitingDecks = (sessionId: string) => {
      for (const element of document.querySelectorAll<HTMLMediaElement>("[data-deck][data-preload-next]")) {
        const postId = element.dataset.deck;
        const key = `${sessionId}:${postId}`;
        if (!postId || saidDecks.has(key) || sending || Date.now() < retryAt) continue;
        if (element.readyState < HTMLMediaElement.HAVE_FUTURE_DATA || element.currentTime > 1) continue;
        send(sessionId, postId, 0, () => saidDecks.add(key));
      }
    };
    const look = () => {
      const { session: s, post: current } = latest.current;
      const live = s.session;
      const playback = s.playback;
      if (!live || s.isHost || !s.following) return;
      waitingDecks(live.id);
      if (!current || !playback || playback.postId !== current.id || playback.playing) return;
      const media = store.media();
      if (!media) return;
      if (media instanceof HTMLMediaElement) {
        if (!sameSource(media, current.src)) return;
        if (media.preload !== "auto") media.preload = "auto";
      }
      // A hosted player that cannot tell how much it has (no readyState) holds nobody up.
      if ((typeof media.readyState === "number" && media.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) || media.seeking) return;
      if (Math.abs(media.currentTime - playback.positionSeconds) > 1) return;
      const key = `${live.id}:${current.id}:${Math.round(playback.positionSeconds)}`;
      if (key === said || sending || Date.now() < retryAt) return;
      send(live.id, current.id, media.currentTime, () => (said = key));
    };
    const timer = setInterval(look, 250);
    const unsubscribe = store.subscribe(look);
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [store]);
  return null;
}

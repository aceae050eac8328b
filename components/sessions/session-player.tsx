"use client";

import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { PostPlayer } from "@/components/posts/post-player";
import { localNow } from "@/lib/sessions/clock";
import { DriftController, baselineDriftOptions, driftOptionsFor } from "@/lib/sessions/drift";
import { onResync, playsBaseline, serverSyncMode, subscribeSyncMode, syncMode } from "@/lib/sessions/sync-choice";
import { positionAt } from "@/lib/sessions/timeline";
import type { SessionPost } from "@/lib/sessions/types";
import { useListeningSession, useSessionFeed } from "@/lib/sessions/use-listening-session";
import { UploadDecks } from "./upload-decks";

/** How often the player is checked against the session's timeline (and at once on every change). */
const tickMs = 50;
/** About how long a file takes from its first byte to playing, on a start that cannot wait for it. */
const expectedLoadMs = 100;
/** The longest the page waits to render a move while the element held ready starts playing. */
const renderHoldMs = 300;

/** The player's media element: an HTML media element lets its rate be set finely; embeds' players may not. */
const nudgeable = (media: HTMLMediaElement) => media instanceof HTMLMediaElement;

const unchanging = () => () => {};

function sourceMatches(media: HTMLMediaElement, src: string): boolean {
  const current = media.currentSrc || media.src || media.getAttribute("src") || "";
  return current === src || decodeURI(current) === decodeURI(src);
}

/**
 * The session's player. Everyone's player, the host's included, plays the session's nominal
 * timeline: a loop compares the media's position with the timeline's and corrects the drift
 * (DriftController, with the listener's correction mode: lib/sessions/correction.ts). Until the
 * person has started listening (`armed`: browsers let media play only after a click), the player
 * stays silent; listening on their own, it is theirs to drive. Uploaded files play in plain media
 * elements, the next queued one waiting loaded beside the playing one (./upload-decks.tsx); links
 * in their provider's player.
 */
export function SessionPlayer({
  post,
  waiting = [],
  armed,
  onBlocked,
  ownPost,
}: {
  post: SessionPost | null;
  /** The posts "next" would play, made ready while this one plays (uploads: see ./upload-decks.tsx). */
  waiting?: readonly (SessionPost | null)[];
  armed: boolean;
  onBlocked: () => void;
  ownPost: boolean;
}) {
  const session = useListeningSession();
  const store = usePlaybackStore();
  const latest = useRef({ session, post, armed, ownPost, onBlocked });
  const tick = useRef<() => void>(() => {});
  const endedFor = useRef<string | null>(null);
  const controllerRef = useRef<DriftController | null>(null);
  const feed = useSessionFeed();
  /** The elements waiting with the next posts (./upload-decks.tsx), by post. */
  const [standbys] = useState(() => new Map<string, HTMLMediaElement>());
  /** A waiting element started the moment the session moved on, before the page has rendered the move (ms: when). */
  const switching = useRef<{ postId: string; at: number } | null>(null);
  // Before the page's first render on the client: the defaults, as the server rendered them.
  const baseline = useSyncExternalStore(unchanging, playsBaseline, () => false);
  const mode = useSyncExternalStore(subscribeSyncMode, syncMode, serverSyncMode);

  // Before any effect: a newly attached player's first tick already sees the post it plays.
  useLayoutEffect(() => {
    latest.current = { session, post, armed, ownPost, onBlocked };
  });
  useEffect(() => controllerRef.current?.configure(baseline ? baselineDriftOptions : driftOptionsFor(mode)), [baseline, mode]);
  useEffect(() => store?.setKnownDuration(post?.duration_seconds ?? null), [store, post?.id, post?.duration_seconds]);

  useEffect(() => {
    if (!store) return;
    const controller = new DriftController(playsBaseline() ? baselineDriftOptions : driftOptionsFor(syncMode()));
    controllerRef.current = controller;
    let forState = "";
    let startedLoading = "";
    let resync = false;
    const step = () => {
      const media = store.media();
      const { session: s, post: current, armed: mayPlay, ownPost: alone, onBlocked: blocked } = latest.current;
      // Started ahead of the render (below): the page's state catches up within moments; until then
      // it would pause the new post's element or play the old one again.
      const ahead = switching.current;
      if (ahead && current?.id !== ahead.postId && localNow() - ahead.at < 1_000) return;
      switching.current = null;
      if (!media || !current) return;
      if (alone || !s.following) return;
      const state = s.playback;
      if (!state || state.postId !== current.id) {
        if (!media.paused) media.pause();
        return;
      }
      // A new state (the host's own change shows before it has a version): decide afresh.
      const key = `${current.id}:${state.version}:${state.stateAtMs}:${state.playing}:${state.positionSeconds}:${state.rate}`;
      if (key !== forState) {
        controller.reset();
        forState = key;
      }
      if (!sourceMatches(media, current.src)) return;
      if (media.readyState < 1) {
        // A file still loading (the host moved on): start it now, where the timeline will be — a
        // position set before the metadata is where playback begins — rather than once it has loaded.
        if (state.playing && mayPlay && media.paused && startedLoading !== key) {
          startedLoading = key;
          media.currentTime = positionAt(state, s.serverNow() + expectedLoadMs, s.duration);
          media.play()?.catch(() => undefined);
        }
        return;
      }
      // The media's own length once it knows it: a stored length may be a provider's, in whole seconds,
      // and the session moves on only when the post has played out.
      const duration = (Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null) ?? s.duration;
      const target = positionAt(state, s.serverNow(), duration);
      const atEnd = duration !== null && target >= duration - 0.02;
      if (atEnd && state.playing && s.isHost && endedFor.current !== `${state.postId}:${state.version}`) {
        // The host's page moves the session on when the post ends (the server advances once).
        endedFor.current = `${state.postId}:${state.version}`;
        void s.actions.next();
      }
      const canNudge = nudgeable(media);
      if (canNudge && !media.preservesPitch) media.preservesPitch = true;
      if (resync) {
        // "Resync": straight to the live position, whatever the mode would rather do.
        resync = false;
        controller.reset();
        media.currentTime = Math.min(target + (state.playing ? controller.lead * state.rate : 0), duration ?? Infinity);
        if (canNudge) media.playbackRate = state.rate;
      }
      if (!state.playing || atEnd || !mayPlay) {
        if (!media.paused) media.pause();
        if (media.playbackRate !== state.rate && canNudge) media.playbackRate = state.rate;
        const decision = controller.decide({
          actual: media.currentTime,
          target,
          rate: state.rate,
          playing: false,
          now: localNow(),
          canNudge,
        });
        if (decision.kind === "seek" && !media.seeking) media.currentTime = decision.to;
        return;
      }
      if (media.paused) {
        // Paused where the session was (it tracks the position while paused): play from there, and
        // let the controller close the little drift; a seek first would hold playback back.
        const aim = Math.min(target + controller.lead * state.rate, duration ?? Infinity);
        if (Math.abs(media.currentTime - target) > 0.15) media.currentTime = aim;
        if (canNudge) media.playbackRate = state.rate;
        media.play()?.catch((error: unknown) => {
          if (error instanceof DOMException && error.name === "NotAllowedError") blocked();
        });
        return;
      }
      if (media.seeking) return;
      const decision = controller.decide({ actual: media.currentTime, target, rate: state.rate, playing: true, now: localNow(), canNudge });
      if (decision.kind === "seek") media.currentTime = Math.min(decision.to, duration ?? Infinity);
      if (canNudge && Math.abs(media.playbackRate - decision.rate) > 0.001) media.playbackRate = decision.rate;
    };
    tick.current = step;
    const timer = setInterval(step, tickMs);
    // Also at once when the media changes (its metadata arrives, it starts or stops), not at the next tick.
    const unsubscribe = store.subscribe(step);
    const stopResync = onResync(() => {
      resync = true;
      step();
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
      stopResync();
      controllerRef.current = null;
    };
  }, [store]);

  // The session moves on to a post waiting ready: its element starts as the change arrives, and the
  // page renders the change once that element plays (that render is most of what is left between
  // the host's "next" and the sound, and on a busy machine it holds the CPU the element needs).
  useEffect(() => {
    if (!feed || !store) return;
    return feed.subscribe(() => {
      const snapshot = feed.snapshot();
      const state = snapshot.playback;
      const { post: current, armed: mayPlay, ownPost: alone } = latest.current;
      if (!state?.playing || !state.postId || state.postId === current?.id || !mayPlay || alone || !snapshot.following) return;
      const standby = standbys.get(state.postId);
      if (!standby || !standby.paused || standby.readyState < 3) return;
      const playingNow = store.media();
      const previous = playingNow && playingNow !== standby ? playingNow : null;
      standby.volume = previous?.volume ?? standby.volume;
      standby.muted = previous?.muted ?? false;
      const target = positionAt(state, snapshot.serverNow(), snapshot.duration);
      if (Math.abs(standby.currentTime - target) > 0.15) standby.currentTime = target;
      standby.playbackRate = state.rate;
      switching.current = { postId: state.postId, at: localNow() };
      const release = feed.holdRender(renderHoldMs);
      standby.addEventListener("playing", release, { once: true });
      standby.play()?.catch(release);
      // Paused after the new one starts, within the same task (no overlap to hear): the old element's
      // "pause" then comes after the new one's "playing", not before it with the renders it sets off.
      previous?.pause();
    });
  }, [feed, store, standbys]);

  // A new state from the host is applied at once, not at the next tick.
  const version = session.playback?.version;
  const playing = session.playback?.playing;
  const at = session.playback?.stateAtMs;
  useEffect(() => tick.current(), [version, playing, at, armed, post?.id, session.following]);

  // Own listening: the player is left as it is, at the nominal rate.
  useEffect(() => {
    const media = store?.media();
    if (media && (ownPost || !session.following) && media.playbackRate !== 1 && nudgeable(media))
      media.playbackRate = session.playback?.rate ?? 1;
  }, [ownPost, session.following, store, session.playback?.rate]);

  if (!post) return null;
  const decks = !baseline;
  return (
    <>
      {!decks || post.media_kind !== "upload" ? (
        <div className={post.audio ? "sr-only" : ""}>
          <PostPlayer src={post.src} audio={post.audio} poster={post.poster} title={post.title} controls={false} />
        </div>
      ) : null}
      {decks ? <UploadDecks playing={post} waiting={ownPost ? [] : waiting} standbys={standbys} /> : null}
    </>
  );
}

/** Volume and mute: the one part of playback that is each person's own. */
export function VolumeControl() {
  const store = usePlaybackStore();
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  useEffect(() => {
    const apply = () => {
      const media = store?.media();
      if (!media) return;
      media.volume = volume;
      media.muted = muted;
    };
    apply();
    const timer = setInterval(apply, 1_000); // a player that loads later, or another post's
    return () => clearInterval(timer);
  }, [store, volume, muted]);
  // A volume set on the playing media itself (the player's keys: ./session-keys.tsx) is the control's too.
  useEffect(() => {
    const follow = (event: Event) => {
      const media = store?.media();
      if (!media || event.target !== media) return;
      setVolume(media.volume);
      setMuted(media.muted);
    };
    document.addEventListener("volumechange", follow, true);
    return () => document.removeEventListener("volumechange", follow, true);
  }, [store]);
  return (
    <div className="flex min-w-0 items-center gap-2">
      <button
        type="button"
        onClick={() => setMuted((m) => !m)}
        aria-pressed={muted}
        className="min-h-10 rounded-lg border border-line bg-raised px-3 text-sm font-medium hover:bg-surface"
      >
        {muted ? "Unmute" : "Mute"}
      </button>
      <label className="flex min-w-0 items-center gap-2 text-sm">
        <span>Volume</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={volume}
          onChange={(event) => setVolume(Number(event.target.value))}
          className="w-24 accent-[var(--color-accent)] sm:w-32"
        />
      </label>
    </div>
  );
}

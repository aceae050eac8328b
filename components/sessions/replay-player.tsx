"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { Avatar } from "@/components/avatar";
import { usePlaybackStore } from "@/components/moments/playback";
import { PlaybackProvider } from "@/components/moments/playback-provider";
import { PersonName } from "@/components/people/person-name";
import { PostPlayer } from "@/components/posts/post-player";
import { Button } from "@/components/ui/button";
import {
  clockAt,
  clockEnded,
  formatReplayClock,
  type HistoryRow,
  lengthInWords,
  momentOf,
  pauseClock,
  playClock,
  positionAt,
  type ReplayClock,
  replayClockStart,
  replayLength,
  seekClock,
  shownAt,
  stretchesOf,
  trackIndexAt,
  tracksOf,
} from "@/lib/sessions/replay";
import type { ReplayComment } from "@/lib/sessions/replay-queries";
import type { SessionPost } from "@/lib/sessions/types";

/** How often the replay looks at its clock (the comments, the position, the media). */
const tickMs = 200;
/** A media element further than this from the replay's position is moved to it. */
const seekPastSeconds = 0.75;
/** A comment stays marked as new for this long on the replay's clock. */
const freshMs = 4_000;

export interface ReplayPlayerProps {
  session: { started_at: string; ended_at: string | null };
  history: HistoryRow[];
  posts: SessionPost[];
  comments: ReplayComment[];
}

/** An ended session played back "as live": its tracks in order on the replay's clock, its comments popping up when they were made. */
export function ReplayPlayer(props: ReplayPlayerProps) {
  return (
    <PlaybackProvider duration={null}>
      <ReplayView {...props} />
    </PlaybackProvider>
  );
}

function sourceMatches(media: HTMLMediaElement, src: string): boolean {
  const current = media.currentSrc || media.src || media.getAttribute("src") || "";
  return current === src || decodeURI(current) === decodeURI(src);
}

function ReplayView({ session, history, posts, comments }: ReplayPlayerProps) {
  const store = usePlaybackStore();
  const length = replayLength(session);
  const byId = useMemo(() => new Map(posts.map((post) => [post.id, post])), [posts]);
  const stretches = useMemo(() => stretchesOf(history, session, (id) => byId.has(id)), [history, session, byId]);
  const tracks = useMemo(() => tracksOf(stretches), [stretches]);
  const events = useMemo(
    () =>
      comments.map((comment) => ({
        id: comment.id,
        atMs: momentOf(comment.created_at, session),
        comment,
        reactions: comment.reactions.map((reaction) => ({ ...reaction, atMs: momentOf(reaction.created_at, session) })),
      })),
    [comments, session],
  );

  const [clock, setClock] = useState<ReplayClock>(replayClockStart);
  const [now, setNow] = useState(0);
  const [blocked, setBlocked] = useState(false);
  const t = clockAt(clock, now, length);
  const position = positionAt(stretches, t);
  const post = position ? (byId.get(position.postId) ?? null) : null;
  const current = trackIndexAt(tracks, t);

  // The clock's hand: a playing replay re-renders a few times a second, and stops at the end.
  useEffect(() => {
    if (!clock.playing) return;
    const timer = setInterval(() => {
      const at = performance.now();
      setNow(at);
      if (clockEnded(clock, at, length)) setClock((c) => pauseClock(c, at, length));
    }, tickMs);
    return () => clearInterval(timer);
  }, [clock, length]);

  // The media follows the replay: the right place in the right post, playing when the session played
  // (on every tick, and at once when the media changes: its metadata arrives, it starts or stops).
  const latest = useRef({ post, position, playing: clock.playing });
  useEffect(() => {
    latest.current = { post, position, playing: clock.playing };
  });
  const follow = useRef<() => void>(() => {});
  useEffect(() => {
    if (!store) return;
    const step = () => {
      const { post: current, position: at, playing } = latest.current;
      const media = store.media();
      if (!media || !current || !at || !sourceMatches(media, current.src) || media.readyState < 1) return;
      const duration = Number.isFinite(media.duration) && media.duration > 0 ? media.duration : current.duration_seconds;
      const target = duration === null ? at.seconds : Math.min(at.seconds, duration);
      const shouldPlay = playing && at.playing && (duration === null || target < duration - 0.05);
      if (Math.abs(media.currentTime - target) > seekPastSeconds && !media.seeking) media.currentTime = target;
      if (media.playbackRate !== at.rate) media.playbackRate = at.rate;
      if (shouldPlay && media.paused) {
        media.play()?.catch((error: unknown) => {
          if (error instanceof DOMException && error.name === "NotAllowedError") setBlocked(true);
        });
      } else if (!shouldPlay && !media.paused) media.pause();
    };
    follow.current = step;
    return store.subscribe(step);
  }, [store]);
  useEffect(() => follow.current(), [t, post, clock.playing]);

  const play = () => {
    const at = performance.now();
    setNow(at);
    setClock((c) => playClock(c, at, length));
    setBlocked(false);
    // Within the click: the browser lets this page play sound from now on.
    const media = store?.media();
    if (media && position?.playing && media.paused && media.readyState >= 1) media.play()?.catch(() => undefined);
  };
  const pause = () => {
    const at = performance.now();
    setNow(at);
    setClock((c) => pauseClock(c, at, length));
  };
  const seek = (to: number) => {
    const at = performance.now();
    setNow(at);
    setClock((c) => seekClock(c, to, at, length));
  };

  const shown = shownAt(events, t);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr] lg:items-start">
      <section
        aria-labelledby="replay-playing"
        className="flex min-w-0 flex-col gap-4 rounded-2xl border border-line bg-raised p-4 sm:p-5 lg:col-start-1"
        data-testid="replay-player"
        data-replay-ms={Math.round(t)}
      >
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id="replay-playing" className="text-sm font-medium text-muted">
            {post
              ? clock.playing && position?.playing
                ? "Playing"
                : "Paused"
              : t >= length
                ? "The session ended here"
                : "Nothing was playing"}
          </h2>
          {post ? (
            <p className="text-lg font-semibold [overflow-wrap:anywhere]" data-testid="replay-track-title">
              {post.title}
            </p>
          ) : null}
        </div>
        {post ? (
          <div className={post.audio ? "sr-only" : ""}>
            <PostPlayer src={post.src} audio={post.audio} poster={post.poster} title={post.title} controls={false} />
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          {clock.playing ? (
            <Button onClick={pause} className="min-h-11 min-w-24">
              Pause
            </Button>
          ) : (
            <Button onClick={play} className="min-h-11 min-w-24">
              {t > 0 && t < length ? "Play on" : "Play the replay"}
            </Button>
          )}
          <p className="text-sm tabular-nums text-muted" aria-live="off">
            <span data-testid="replay-time">{formatReplayClock(t)}</span> / {formatReplayClock(length)}
          </p>
        </div>
        <label className="flex flex-col gap-1 text-sm">
          <span className="sr-only">Replay position</span>
          <input
            type="range"
            min={0}
            max={Math.max(1, Math.floor(length / 1000))}
            step={1}
            value={Math.floor(t / 1000)}
            onChange={(event) => {
              const seconds = Number(event.target.value);
              // the bar counts whole seconds: its last step is the very end
              seek(seconds >= Math.floor(length / 1000) ? length : seconds * 1000);
            }}
            aria-valuetext={`${formatReplayClock(t)} of ${formatReplayClock(length)}`}
            className="min-h-11 w-full accent-[var(--color-accent)]"
          />
        </label>
        {blocked ? <p className="text-sm text-muted">Your browser held the sound back — press Play again to hear it.</p> : null}
      </section>

      <section aria-labelledby="replay-tracks" className="flex min-w-0 flex-col gap-3 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <h2 id="replay-tracks" className="text-base font-semibold">
          Tracks
        </h2>
        {tracks.length === 0 ? <p className="text-sm text-muted">Nothing this session played is still in the room.</p> : null}
        <ol className="flex flex-col gap-2">
          {tracks.map((track, index) => {
            const title = byId.get(track.postId)?.title ?? "—";
            return (
              <li
                key={`${track.postId}-${track.startMs}`}
                aria-current={index === current ? "true" : undefined}
                className={`flex min-w-0 items-center justify-between gap-3 rounded-xl border px-3 py-2 ${
                  index === current ? "border-accent/60 bg-accent/10" : "border-line bg-raised"
                }`}
              >
                <div className="flex min-w-0 flex-col">
                  <span className="truncate font-medium">{title}</span>
                  <span className="text-xs tabular-nums text-muted">
                    at {formatReplayClock(track.startMs)} · {lengthInWords(track.endMs - track.startMs)}
                  </span>
                </div>
                <Button
                  variant="ghost"
                  className="min-h-11 shrink-0"
                  onClick={() => seek(track.startMs)}
                  aria-label={`Replay from ${title}`}
                >
                  From here
                </Button>
              </li>
            );
          })}
        </ol>
      </section>

      <section aria-labelledby="replay-comments" className="flex min-w-0 flex-col gap-3 lg:col-start-1">
        <h2 id="replay-comments" className="text-base font-semibold">
          Comments
        </h2>
        {shown.length === 0 ? (
          <p className="text-sm text-muted">
            {events.length === 0
              ? "Nobody commented during this session."
              : "Comments made during the session pop up here at the moment they were written."}
          </p>
        ) : null}
        <ol aria-live={clock.playing ? "polite" : "off"} aria-label="Comments so far" className="flex flex-col-reverse gap-2">
          {shown.map(({ id, atMs, comment, reactions }) => {
            const counts = countReactions(reactions.filter((reaction) => reaction.atMs <= t));
            const fresh = t - atMs < freshMs;
            return (
              <li
                key={id}
                data-replay-comment={id}
                className={`flex min-w-0 items-start gap-2 rounded-xl border px-3 py-2 text-sm shadow-sm ${
                  fresh ? "border-accent/50 bg-accent/10" : "border-line bg-raised"
                }`}
              >
                <Avatar path={comment.author?.avatar_path} name={comment.author?.display_name ?? "?"} size={24} />
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="min-w-0 [overflow-wrap:anywhere]">
                    <PersonName person={comment.author} className="font-medium" />{" "}
                    <span className="tabular-nums text-muted">at {formatReplayClock(atMs)}</span>
                    <span className="sr-only">:</span> <span className="whitespace-pre-line">{comment.body}</span>
                  </p>
                  {counts.length ? (
                    <p className="flex flex-wrap gap-1">
                      <span className="sr-only">Reactions:</span>
                      {counts.map(([emoji, n]) => (
                        <span key={emoji} className="rounded-full border border-line px-2 text-xs tabular-nums">
                          {emoji} {n}
                        </span>
                      ))}
                    </p>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

function countReactions(reactions: { emoji: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const reaction of reactions) counts.set(reaction.emoji, (counts.get(reaction.emoji) ?? 0) + 1);
  return [...counts];
}

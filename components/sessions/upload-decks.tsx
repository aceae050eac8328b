"use client";

import { type RefObject, useEffect, useRef, useState } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { decksOf, nextSource, readyAtFirst, readyPostIds, readyStep } from "@/lib/sessions/preload";
import type { QueueEntry, SessionPost, SessionRow } from "@/lib/sessions/types";

type Level = { volume: number; muted: boolean };

/**
 * The session's uploaded files, in plain media elements: the one playing (attached to the page's
 * playback, which the session player drives) and, while it plays, the next queued one waiting in a
 * second element — loaded, paused at its start, muted and out of sight. Each element is keyed by
 * its post, so when the session moves on, the waiting element becomes the playing one as it is: a
 * swap and a play, with nothing left to fetch (lib/sessions/preload.ts).
 */
export function UploadDecks({
  playing,
  waiting,
  standbys,
}: {
  playing: SessionPost | null;
  waiting: readonly (SessionPost | null)[];
  /** The waiting elements by post, for the player to start one the moment the session moves on to it. */
  standbys?: Map<string, HTMLMediaElement>;
}) {
  // The person's volume and mute, carried from one element to the next.
  const level = useRef<Level | null>(null);
  const decks = decksOf(playing, waiting);
  if (!decks.length) return null;
  return (
    <>
      {decks.map((deck) => (
        <Deck key={deck.post.id} post={deck.post} active={deck.active} level={level} standbys={standbys} />
      ))}
    </>
  );
}

/**
 * The posts to keep waiting while `playingPostId` plays (lib/sessions/preload.ts): the next one (the
 * next queued post, or in DJ turns the next DJ's pick), and one just taken from where it waited.
 */
export function useReadyPostIds(
  row: Pick<SessionRow, "mode" | "dj_waitlist"> | null,
  queue: readonly QueueEntry[],
  playingPostId: string | null,
  enabled: boolean,
): string[] {
  const source = nextSource(row, queue);
  const next = enabled ? source.next(playingPostId) : null;
  const [state, setState] = useState(() => readyAtFirst(playingPostId, next));
  const stepped = readyStep(state, playingPostId, next, source.waiting);
  if (stepped !== state) setState(stepped);
  return enabled ? readyPostIds(stepped) : [];
}

function Deck({
  post,
  active,
  level,
  standbys,
}: {
  post: SessionPost;
  active: boolean;
  level: RefObject<Level | null>;
  standbys?: Map<string, HTMLMediaElement>;
}) {
  const store = usePlaybackStore();
  const element = useRef<HTMLAudioElement & HTMLVideoElement>(null);
  // The file's URL as it was first given: signing it again must not reload an element that plays.
  // One still waiting takes a fresh URL (its first may have aged while the queue waited).
  const [src, setSrc] = useState(post.src);
  if (!active && post.src !== src) setSrc(post.src);

  useEffect(() => {
    const media = element.current;
    if (!media || !store) return;
    // Rate nudges (lib/sessions/correction.ts) move the tempo, never the pitch.
    media.preservesPitch = true;
    if (!active) {
      media.muted = true;
      if (!media.paused) media.pause();
      standbys?.set(post.id, media);
      return () => {
        if (standbys?.get(post.id) === media) standbys.delete(post.id);
      };
    }
    media.muted = level.current?.muted ?? false;
    if (level.current) media.volume = level.current.volume;
    store.attach(media);
    return () => {
      level.current = { volume: media.volume, muted: media.muted };
      if (store.media() === media) store.attach(null);
      if (!media.paused) media.pause();
    };
  }, [active, store, level, standbys, post.id]);

  const standby = active ? {} : { "data-preload-next": "", "aria-hidden": true, hidden: true };
  return post.audio ? (
    <audio ref={element} src={src} preload="auto" title={post.title} data-deck={post.id} {...standby} />
  ) : (
    <video
      ref={element}
      src={src}
      preload="auto"
      playsInline
      title={post.title}
      poster={post.poster ?? undefined}
      data-deck={post.id}
      className="aspect-video w-full overflow-hidden rounded-2xl bg-black"
      {...standby}
    />
  );
}

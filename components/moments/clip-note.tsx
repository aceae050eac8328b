"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { type Clip, type ClipEvent, type ClipStatus, clipRange, clipStep, msUntilEnd } from "@/lib/moments/clip";
import { formatMomentTime } from "@/lib/moments/time";
import { useMoments } from "./moments-context";
import { usePlayback, usePlaybackStore } from "./playback";
import type { PlaybackStore } from "./playback-store";

/**
 * A link's clip (`?t=…&end=…`) played out: the media stops at the end, within a few hundredths of
 * a second — a timer aimed at the end, checked again on each of the media's own updates. It never
 * fights the person: a seek past the end, or play from where it stopped, ends the clip.
 */
function useClip(clip: Clip | null, playback: PlaybackStore | null): [ClipStatus, (status: ClipStatus) => void] {
  const [status, setStatus] = useState<ClipStatus>("armed");
  const current = useRef<ClipStatus>(status);
  const update = (next: ClipStatus) => {
    current.current = next;
    setStatus(next);
  };

  useEffect(() => {
    if (!playback || !clip) return;
    let media: HTMLMediaElement | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unbind = () => {};
    const run = (event: ClipEvent) => {
      const next = clipStep(clip, current.current, event);
      if (next.pause) media?.pause();
      if (next.status !== current.current) {
        current.current = next.status;
        setStatus(next.status);
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      const element = media;
      if (!element || element.paused || current.current !== "armed") return;
      timer = setTimeout(
        () => {
          run({ type: "tick", time: element.currentTime, playing: !element.paused });
          schedule();
        },
        msUntilEnd(clip, element.currentTime, element.playbackRate),
      );
    };
    const bind = (element: HTMLMediaElement | null) => {
      unbind();
      media = element;
      if (!element) return;
      const on = (event: ClipEvent["type"]) => () => {
        run(
          event === "tick"
            ? { type: "tick", time: element.currentTime, playing: !element.paused }
            : { type: event, time: element.currentTime },
        );
        schedule();
      };
      const handlers: [string, () => void][] = [
        ["timeupdate", on("tick")],
        ["playing", on("tick")],
        ["ratechange", on("tick")],
        ["play", on("play")],
        ["seeked", on("seeked")],
        ["pause", schedule],
      ];
      for (const [name, handler] of handlers) element.addEventListener(name, handler);
      unbind = () => {
        for (const [name, handler] of handlers) element.removeEventListener(name, handler);
        unbind = () => {};
      };
      schedule();
    };
    bind(playback.media());
    const unsubscribe = playback.subscribe(() => {
      if (playback.media() !== media) bind(playback.media());
    });
    return () => {
      unsubscribe();
      unbind();
      clearTimeout(timer);
    };
  }, [clip, playback]);

  return [status, update];
}

/**
 * A link's clip under the player: "Clip 1:42–2:10" with "Play whole track" (which drops the end),
 * while it lasts. A chunk of its own, loaded only for a link with `&end=` (./player-bar.tsx).
 */
export function ClipNote() {
  const { target } = useMoments();
  const playback = usePlaybackStore();
  const duration = usePlayback((snapshot) => snapshot.duration);
  const clip = useMemo(() => clipRange(target.startAt, target.endAt ?? null, duration), [target.startAt, target.endAt, duration]);
  const [status, setStatus] = useClip(clip, playback);
  if (!clip || status === "over") return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <span className="rounded-md border border-line px-2 py-1 font-medium">
        Clip {formatMomentTime(clip.start)}–{formatMomentTime(clip.end)}
      </span>
      <button type="button" className={buttonClasses("ghost", "min-h-11")} onClick={() => setStatus("over")}>
        Play whole track
      </button>
    </p>
  );
}

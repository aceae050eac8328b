"use client";

import { useEffect, useSyncExternalStore } from "react";

/**
 * Whether the page's player is playing, for "here now". Media elements (and react-player's custom
 * media elements) fire play/pause events that do not bubble; a listener in the capture phase on the
 * document hears them all without the player's code knowing. A player that is not a media element
 * can say so itself with `reportPlayback`.
 */

let playing = false;
const listeners = new Set<() => void>();

/** Tells "here now" the page's player started (true) or stopped (false). */
export function reportPlayback(isPlaying: boolean): void {
  if (playing === isPlaying) return;
  playing = isPlaying;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const started = new Set(["play", "playing"]);
const stopped = new Set(["pause", "ended", "emptied"]);

function onMediaEvent(event: Event): void {
  const target = event.target as (EventTarget & { paused?: unknown }) | null;
  if (!target || typeof target.paused !== "boolean") return;
  if (started.has(event.type)) reportPlayback(true);
  else if (stopped.has(event.type)) reportPlayback(false);
}

/** Is the page's player playing? Watches the page's media while mounted. */
export function usePlaying(): boolean {
  useEffect(() => {
    const types = [...started, ...stopped];
    for (const type of types) document.addEventListener(type, onMediaEvent, true);
    return () => {
      for (const type of types) document.removeEventListener(type, onMediaEvent, true);
      reportPlayback(false);
    };
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => playing,
    () => false,
  );
}

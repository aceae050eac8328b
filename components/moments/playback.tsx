"use client";

import { createContext, useContext, useSyncExternalStore } from "react";
import type { PlaybackSnapshot, PlaybackStore } from "./playback-store";

/** The page's playback store, given by ./playback-provider.tsx (null outside one). */
export const PlaybackContext = createContext<PlaybackStore | null>(null);

/** The store, for seeking and attaching (no re-render on time updates); null outside a provider. */
export function usePlaybackStore(): PlaybackStore | null {
  return useContext(PlaybackContext);
}

const idle: PlaybackSnapshot = { time: 0, duration: null, playing: false };
const noop = () => () => {};

/** A value derived from playback; the component re-renders only when it changes. */
export function usePlayback<T>(select: (snapshot: PlaybackSnapshot) => T): T {
  const store = useContext(PlaybackContext);
  return useSyncExternalStore(
    store ? store.subscribe : noop,
    () => select(store ? store.get() : idle),
    () => select(store ? store.get() : idle),
  );
}

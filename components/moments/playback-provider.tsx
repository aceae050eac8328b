"use client";

import { type ReactNode, useState } from "react";
import { PlaybackContext } from "./playback";
import { createPlaybackStore } from "./playback-store";

/** Gives the post's page its playback store (the player attaches to it; markers, list and composer read it). */
export function PlaybackProvider({ duration, children }: { duration: number | null; children: ReactNode }) {
  const [store] = useState(() => createPlaybackStore(duration));
  return <PlaybackContext.Provider value={store}>{children}</PlaybackContext.Provider>;
}

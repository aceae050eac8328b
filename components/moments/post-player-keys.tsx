"use client";

import { useCallback, useLayoutEffect, useRef } from "react";
import { PlayerKeys } from "@/components/player/player-keys";
import type { MediaSessionSetup } from "@/lib/player/media-session";
import { useMoments } from "./moments-context";
import { usePlaybackStore } from "./playback";
import type { PostKeysContext } from "./post-keys-runtime";

/**
 * The post page's keyboard shortcuts and lock-screen controls: `,`/`.` (and the lock screen's
 * previous/next) move between the comments. Their code arrives after first paint.
 */
export function PostPlayerKeys({ media }: { media: MediaSessionSetup }) {
  const store = usePlaybackStore();
  const { state, pick, viewer } = useMoments();
  const latest = useRef<PostKeysContext | null>(null);
  useLayoutEffect(() => {
    latest.current = store ? { store, moments: state.items, pick, canComment: viewer.canComment, media } : null;
  });
  const start = useCallback(
    () =>
      import("./post-keys-runtime").then(({ startPostKeys }) =>
        startPostKeys(() => {
          if (!latest.current) throw new Error("PostPlayerKeys needs a PlaybackProvider");
          return latest.current;
        }),
      ),
    [],
  );
  return <PlayerKeys start={start} />;
}

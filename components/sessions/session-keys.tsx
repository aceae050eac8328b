"use client";

import { useCallback, useLayoutEffect, useRef } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { PlayerKeys } from "@/components/player/player-keys";
import type { MediaSessionPicture } from "@/lib/player/media-session";
import { personName } from "@/lib/people/names";
import type { SessionPost } from "@/lib/sessions/types";
import { useListeningSession } from "@/lib/sessions/use-listening-session";
import type { SessionKeysContext } from "./session-keys-runtime";

/**
 * The session page's keyboard shortcuts and lock-screen controls (./session-keys-runtime.ts says
 * who may do what: the host moves the session, a follower only their own listening). Their code
 * arrives after first paint.
 */
export function SessionKeys({
  post,
  armed,
  onArm,
  onDisarm,
  cover = [],
}: {
  post: SessionPost | null;
  armed: boolean;
  onArm: () => void;
  onDisarm: () => void;
  cover?: MediaSessionPicture[];
}) {
  const session = useListeningSession();
  const store = usePlaybackStore();
  const latest = useRef<SessionKeysContext | null>(null);
  useLayoutEffect(() => {
    latest.current = store ? { session, store, post, armed, arm: onArm, disarm: onDisarm, cover } : null;
  });
  const start = useCallback(
    () =>
      import("./session-keys-runtime").then(({ startSessionKeys }) =>
        startSessionKeys(() => {
          if (!latest.current) throw new Error("SessionKeys needs a PlaybackProvider");
          return latest.current;
        }),
      ),
    [],
  );
  // The host's name shows on a follower's lock screen once their presence is known.
  const host = session.listeners.find((listener) => listener.user_id === session.hostId);
  const version = [post?.id, post?.title, session.isHost, session.following, host ? personName(host).name : ""].join("|");
  return <PlayerKeys start={start} inSession version={version} />;
}

import type { PlayerKeysRuntime } from "@/components/player/player-keys";
import { adjacentByTime, type KeyPlayer, runPlayerCommand, seekTarget } from "@/lib/player/commands";
import { playerCommand } from "@/lib/player/keys";
import { clearMediaSession, mediaSessionOf, type MediaSessionSetup, setMediaSession, trackPosition } from "@/lib/player/media-session";
import type { Moment } from "@/lib/moments/types";
import { commentHere } from "./comment-here";
import { excerpt, momentLabel } from "./names";
import type { PlaybackStore } from "./playback-store";

// The post page's shortcuts and lock-screen controls, loaded after first paint (./post-player-keys.tsx).

export interface PostKeysContext {
  store: PlaybackStore;
  /** The comments on the page, in media order (replies are under them). */
  moments: readonly Moment[];
  /** Seeks to a comment and plays, highlighting it (the markers' pick). */
  pick: (moment: Moment) => void;
  canComment: boolean;
  media: MediaSessionSetup;
}

/** Plays the post: its media element once there; until then (a hosted player waiting to be played) the store loads it and plays. */
function postPlayer(get: () => PostKeysContext): KeyPlayer {
  const media = () => get().store.media();
  const timed = () =>
    get()
      .moments.filter((moment) => moment.at_seconds !== null && !moment.deleted_at)
      .map((moment) => ({ at: moment.at_seconds as number, moment }));
  return {
    state() {
      const { store } = get();
      const element = media();
      const snapshot = store.get();
      return {
        time: element && element.readyState >= 1 ? element.currentTime : snapshot.time,
        duration: snapshot.duration,
        playing: element ? !element.paused : snapshot.playing,
        volume: element ? element.volume : null,
        muted: element?.muted ?? false,
      };
    },
    play() {
      const { store } = get();
      const element = media();
      if (element) void element.play()?.catch(() => undefined);
      else store.seek(store.get().time, { play: true });
    },
    pause: () => media()?.pause(),
    seek: (seconds) => get().store.seek(seconds),
    setVolume(volume) {
      const element = media();
      if (element) element.volume = volume;
    },
    setMuted(muted) {
      const element = media();
      if (element) element.muted = muted;
    },
    comment(direction) {
      const found = adjacentByTime(timed(), this.state().time, direction);
      if (!found) return direction === 1 ? "No comment after this point" : "No comment before this point";
      get().pick(found.moment);
      return `${momentLabel(found.moment)}: ${excerpt(found.moment.body)}`;
    },
    compose() {
      return commentHere() ?? (get().canComment ? "The comment form isn't ready yet" : "Join the room to comment");
    },
  };
}

/** Starts the shortcuts' runtime and the lock screen's controls for the post. */
export function startPostKeys(get: () => PostKeysContext): PlayerKeysRuntime {
  const player = postPlayer(get);
  const session = mediaSessionOf();
  let stop = () => {};
  if (session) {
    const seekBy = (by: number) => {
      const { time, duration } = player.state();
      player.seek(seekTarget(time, by, duration));
    };
    setMediaSession(session, get().media, {
      play: () => player.play(),
      pause: () => player.pause(),
      seekbackward: (details) => seekBy(-(details.seekOffset ?? 10)),
      seekforward: (details) => seekBy(details.seekOffset ?? 10),
      seekto: (details) => {
        if (details.seekTime !== undefined) player.seek(details.seekTime);
      },
      previoustrack: () => player.comment(-1),
      nexttrack: () => player.comment(1),
    });
    stop = trackPosition(session, get().store);
  }
  return {
    command: playerCommand,
    run: (command) => runPlayerCommand(command, player),
    dispose() {
      stop();
      if (session) clearMediaSession(session);
    },
  };
}

import { commentHere } from "@/components/moments/comment-here";
import type { PlaybackStore } from "@/components/moments/playback-store";
import type { PlayerKeysRuntime } from "@/components/player/player-keys";
import { type KeyPlayer, runPlayerCommand, seekTarget } from "@/lib/player/commands";
import { playerCommand } from "@/lib/player/keys";
import {
  clearMediaSession,
  type MediaSessionHandlers,
  type MediaSessionPicture,
  mediaSessionOf,
  setMediaSession,
  trackPosition,
} from "@/lib/player/media-session";
import { personName } from "@/lib/people/names";
import type { SessionPost } from "@/lib/sessions/types";
import type { ListeningSessionValue } from "@/lib/sessions/use-listening-session";

// The listening session's shortcuts and lock-screen controls, loaded after first paint
// (./session-keys.tsx). Who may do what follows the session's own rules:
// - the host drives the session: play, pause and seeking are the session's (everyone follows);
//   previous/next are the queue's: next plays the next queued post, previous the current one from
//   its start (a session keeps no history of what it played);
// - a follower drives only their own listening: play joins the session where it is, pause stops
//   hearing it (the session goes on, and "Join the session" is offered again); seeking and the queue
//   are refused in words, the lock screen offers neither, and its second line says whom they follow;
// - listening on their own, the player is theirs, as on a post's page.

export interface SessionKeysContext {
  session: ListeningSessionValue;
  store: PlaybackStore;
  post: SessionPost | null;
  /** Listening (the browser may play): a follower's own play/pause. */
  armed: boolean;
  arm: () => void;
  disarm: () => void;
  /** The room's cover, for a post without a picture of its own. */
  cover: MediaSessionPicture[];
}

type Role = "host" | "follower" | "own";

const roleOf = ({ session }: SessionKeysContext): Role => (session.isHost ? "host" : session.following ? "follower" : "own");

function hostName({ session }: SessionKeysContext): string {
  const host = session.listeners.find((listener) => listener.user_id === session.hostId);
  return host ? personName(host).name : "the host";
}

function sessionPlayer(get: () => SessionKeysContext): KeyPlayer {
  const media = () => get().store.media();
  return {
    state() {
      const context = get();
      const { session, store } = context;
      const element = media();
      const role = roleOf(context);
      const own = role === "own";
      return {
        time: own ? (element?.currentTime ?? store.get().time) : session.position(),
        duration: session.duration ?? store.get().duration,
        playing: own ? Boolean(element && !element.paused) : Boolean(session.playback?.playing) && (role === "host" || context.armed),
        volume: element ? element.volume : null,
        muted: element?.muted ?? false,
      };
    },
    play() {
      const context = get();
      const role = roleOf(context);
      if (role === "own")
        return void media()
          ?.play()
          ?.catch(() => undefined);
      if (!context.armed) context.arm();
      if (role === "host") void context.session.actions.play();
    },
    pause() {
      const context = get();
      const role = roleOf(context);
      if (role === "own") return media()?.pause();
      if (role === "host") return void context.session.actions.pause();
      context.disarm();
    },
    seek(seconds) {
      const context = get();
      if (roleOf(context) === "host") void context.session.actions.seek(seconds);
      else context.store.seek(seconds);
    },
    setVolume(volume) {
      const element = media();
      if (element) element.volume = volume;
    },
    setMuted(muted) {
      const element = media();
      if (element) element.muted = muted;
    },
    comment(direction) {
      const context = get();
      const { session } = context;
      if (direction === -1) {
        void session.actions.seek(0);
        return `Back to the start of ${context.post?.title ?? "this post"}`;
      }
      const queued = session.queue.some((entry) => entry.status === "queued" && entry.post_id !== session.playback?.postId);
      if (!queued) return "Nothing else is queued";
      void session.actions.next();
      return "Next in the queue";
    },
    compose: () => commentHere() ?? "Nothing is playing to comment on yet",
    refuse(command) {
      const context = get();
      const role = roleOf(context);
      if (!context.post && command.kind !== "help" && command.kind !== "compose") return "Nothing is playing yet";
      if (role === "host") return null;
      const moves = command.kind === "seekBy" || command.kind === "jumpTo";
      if (role === "follower" && moves) return `Only the host moves the session — you're following ${hostName(context)}`;
      if (command.kind === "comment")
        return `Only the host moves through the queue${role === "follower" ? ` — you're following ${hostName(context)}` : ""}`;
      return null;
    },
  };
}

/** Starts the session's shortcuts and its lock-screen controls; `update` sets the lock screen again as roles and posts change. */
export function startSessionKeys(get: () => SessionKeysContext): PlayerKeysRuntime {
  const player = sessionPlayer(get);
  const mediaSession = mediaSessionOf();
  let stop = () => {};
  const update = () => {
    if (!mediaSession) return;
    const context = get();
    const { post, session } = context;
    const role = roleOf(context);
    const seekBy = (by: number) => {
      const { time, duration } = player.state();
      player.seek(seekTarget(time, by, duration));
    };
    const handlers: MediaSessionHandlers = {
      play: () => player.play(),
      pause: () => player.pause(),
      ...(role === "follower"
        ? {}
        : {
            seekbackward: (details) => seekBy(-(details.seekOffset ?? 10)),
            seekforward: (details) => seekBy(details.seekOffset ?? 10),
            seekto: (details) => {
              if (details.seekTime !== undefined) player.seek(details.seekTime);
            },
          }),
      ...(role === "host" ? { previoustrack: () => player.comment(-1), nexttrack: () => player.comment(1) } : {}),
    };
    setMediaSession(
      mediaSession,
      {
        title: post?.title ?? "Listen together",
        artist: role === "follower" ? `Following ${hostName(context)}` : session.room.name,
        album: `Listen together · ${session.room.name}`,
        artwork: post?.poster ? [{ src: post.poster }] : context.cover,
      },
      handlers,
    );
  };
  if (mediaSession) {
    update();
    // Where the session is (following) or the person's own player is (on their own).
    stop = trackPosition(mediaSession, get().store, () => {
      const { time, duration, playing } = player.state();
      const rate = roleOf(get()) === "own" ? undefined : (get().session.playback?.rate ?? 1);
      return { time, duration, playing, ...(rate === undefined ? {} : { rate }) };
    });
  }
  return {
    command: playerCommand,
    run: (command) => runPlayerCommand(command, player),
    update,
    dispose() {
      stop();
      if (mediaSession) clearMediaSession(mediaSession);
    },
  };
}

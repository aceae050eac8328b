import { formatMomentTime } from "@/lib/moments/time";
import type { PlayerCommand } from "./keys";

// What a shortcut does to a player, and the words a screen reader hears for it. The player is
// whatever the page plays (the post's media, a listening session's), behind this small interface.

export interface PlayerState {
  time: number;
  /** Seconds, or null until known. */
  duration: number | null;
  playing: boolean;
  /** 0–1, or null until the player has loaded. */
  volume: number | null;
  muted: boolean;
}

export interface KeyPlayer {
  state(): PlayerState;
  play(): void;
  pause(): void;
  seek(seconds: number): void;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  /** Moves to the previous or next comment (or whatever the page has in their place); says what it did. */
  comment(direction: -1 | 1): string;
  /** Puts the focus in the comment field with the current time; says what happened. */
  compose(): string;
  /** Words for a command this page does not allow now (a follower moving the host's session), or null. */
  refuse?(command: PlayerCommand): string | null;
}

const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`;
const notLoaded = "The player hasn't loaded yet — press play first.";

/** Where a relative seek lands: never before the start nor past the end (when known). */
export function seekTarget(time: number, by: number, duration: number | null): number {
  const to = Math.max(0, time + by);
  return duration === null ? to : Math.min(to, duration);
}

/** A volume step, on a 10 % grid, within 0–1. */
export function steppedVolume(volume: number, step: number): number {
  return Math.min(1, Math.max(0, Math.round((volume + step) * 10) / 10));
}

/**
 * Runs a command (all but `help`, which the page shows itself) on the player and answers what a
 * screen reader should hear: "Paused", "Forward 10 seconds — 1:52", "Volume 60%", "Muted".
 */
export function runPlayerCommand(command: PlayerCommand, player: KeyPlayer): string {
  const refused = player.refuse?.(command);
  if (refused) return refused;
  const state = player.state();
  switch (command.kind) {
    case "toggle":
      if (state.playing) {
        player.pause();
        return "Paused";
      }
      player.play();
      return "Playing";
    case "seekBy": {
      const to = seekTarget(state.time, command.seconds, state.duration);
      player.seek(to);
      const way = command.seconds < 0 ? "Back" : "Forward";
      return `${way} ${seconds(Math.abs(command.seconds))} — ${formatMomentTime(to)}`;
    }
    case "jumpTo": {
      if (state.duration === null) return "The track's length isn't known yet — play it first.";
      const to = state.duration * command.fraction;
      player.seek(to);
      return `${Math.round(command.fraction * 100)}% — ${formatMomentTime(to)}`;
    }
    case "volumeBy": {
      if (state.volume === null) return notLoaded;
      // From the volume set, muted or not: a step either way also unmutes (down to nothing mutes).
      const volume = steppedVolume(state.volume, command.step);
      player.setVolume(volume);
      player.setMuted(volume === 0);
      return volume === 0 ? "Muted" : `Volume ${Math.round(volume * 100)}%`;
    }
    case "mute": {
      if (state.volume === null) return notLoaded;
      const muted = !state.muted;
      player.setMuted(muted);
      // Unmuting from silence comes back at a volume that can be heard.
      if (!muted && state.volume === 0) player.setVolume(0.5);
      return muted ? "Muted" : `Unmuted — volume ${Math.round((state.volume === 0 ? 0.5 : state.volume) * 100)}%`;
    }
    case "comment":
      return player.comment(command.direction);
    case "compose":
      return player.compose();
    case "help":
      return "";
  }
}

/** The comment (by its time) that `,` or `.` moves to from `time`: just past one, `,` goes to the one before. */
export function adjacentByTime<T extends { at: number }>(items: readonly T[], time: number, direction: -1 | 1): T | null {
  const sorted = [...items].sort((a, b) => a.at - b.at);
  if (direction === 1) return sorted.find((item) => item.at > time + 0.5) ?? null;
  return sorted.findLast((item) => item.at < time - 1.5) ?? null;
}

import type { PlaybackState } from "./types";

/**
 * Where the session's playback is at a moment of the server's clock: the position the state was
 * true at, moved on at its rate while playing, never before 0 or past the end (when known).
 */
export function positionAt(
  state: Pick<PlaybackState, "positionSeconds" | "playing" | "rate" | "stateAtMs">,
  serverNowMs: number,
  durationSeconds: number | null = null,
): number {
  const elapsed = state.playing ? Math.max(0, serverNowMs - state.stateAtMs) / 1000 : 0;
  const position = Math.max(0, state.positionSeconds + elapsed * state.rate);
  return durationSeconds !== null && Number.isFinite(durationSeconds) && durationSeconds > 0
    ? Math.min(position, durationSeconds)
    : position;
}

/** Whether the nominal timeline has reached the end of the media (it stops there). */
export function reachedEnd(
  state: Pick<PlaybackState, "positionSeconds" | "playing" | "rate" | "stateAtMs">,
  serverNowMs: number,
  durationSeconds: number | null,
): boolean {
  return durationSeconds !== null && durationSeconds > 0 && positionAt(state, serverNowMs, null) >= durationSeconds;
}

/**
 * The host's one primary action (DESIGN.md: one primary action per view), from what the session
 * is doing and what this page can do:
 * - `choose`: nothing loaded and nothing queued — pick a post to play;
 * - `queue`: nothing loaded, or the post played out, and the queue has posts — play the next one;
 * - `replay`: the post played out with nothing queued — play it again;
 * - `listen`: the session plays but this page's sound has not started (the browser waits for a click);
 * - `pause` while playing, `play` while paused.
 */
export type HostPrimary = "choose" | "queue" | "replay" | "listen" | "pause" | "play";

export interface HostView {
  /** A post is loaded in the session. */
  hasPost: boolean;
  playing: boolean;
  /** Where the session's playback is (s) and the post's length (null: unknown). */
  positionSeconds: number;
  duration: number | null;
  /** Posts queued to play next (suggestions not counted). */
  queued: number;
  /** This page may play sound (the person clicked since it loaded). */
  armed: boolean;
}

/** How close to its end a paused post counts as played out (the server pauses a post that ended at its length). */
const endSlackSeconds = 0.5;

export const playedOut = (view: Pick<HostView, "hasPost" | "playing" | "positionSeconds" | "duration">): boolean =>
  view.hasPost && !view.playing && view.duration !== null && view.positionSeconds >= view.duration - endSlackSeconds;

export function hostPrimaryAction(view: HostView): HostPrimary {
  if (!view.hasPost) return view.queued > 0 ? "queue" : "choose";
  if (playedOut(view)) return view.queued > 0 ? "queue" : "replay";
  if (view.playing) return view.armed ? "pause" : "listen";
  return "play";
}

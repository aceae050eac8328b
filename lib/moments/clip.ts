// A clip: a link's `?t=` and `&end=` play only that part of the media, then stop. Pure rules (no
// React, no media element), so the player's component only reports what the media does.

/** The part of the media a link asked for, in seconds. */
export interface Clip {
  start: number;
  end: number;
}

/**
 * armed: playing towards `end`, where it stops. stopped: it stopped there (a play from there, or a
 * seek outside the part, ends the clip; a seek back inside plays it again). over: the whole track plays.
 */
export type ClipStatus = "armed" | "stopped" | "over";

/** How close to `end` counts as there: a tick may land a little before it. */
export const clipTolerance = 0.05;
/** Further past `end` than playing could have gone between two looks (a throttled tab's timers): a jump. */
const clipOvershoot = 1.5;

/**
 * The clip a link's start and end make, or null when there is none: no end, an end at or before the
 * start, or an end past the media's length (when that is known). Such an end is ignored; the start
 * still applies. No start means the beginning.
 */
export function clipRange(startAt: number | null, endAt: number | null, duration: number | null): Clip | null {
  if (endAt === null) return null;
  const start = startAt ?? 0;
  if (endAt <= start) return null;
  // A stored duration is whole seconds at most half a second off the file's.
  if (duration !== null && endAt > duration + 0.5) return null;
  return { start, end: endAt };
}

export type ClipEvent =
  /** The media's time now, while it plays or not. */
  | { type: "tick"; time: number; playing: boolean }
  /** Someone moved the playhead (a seek finished) to `time`. */
  | { type: "seeked"; time: number }
  /** Playback started at `time`. */
  | { type: "play"; time: number };

/** What the clip does on an event: its next status, and whether to pause the media now. */
export function clipStep(clip: Clip, status: ClipStatus, event: ClipEvent): { status: ClipStatus; pause: boolean } {
  const stay = { status, pause: false };
  if (status === "over") return stay;
  const atEnd = (time: number) => time >= clip.end - clipTolerance;
  switch (event.type) {
    case "tick":
      if (status !== "armed" || !event.playing || !atEnd(event.time)) return stay;
      // Well past the end already: the person moved there (a hosted player may not report its seeks).
      if (event.time > clip.end + clipOvershoot) return { status: "over", pause: false };
      return { status: "stopped", pause: true };
    case "seeked":
      if (status === "stopped") {
        // Back inside the part plays the clip again; anywhere else, the person has moved on.
        const inside = event.time >= clip.start - 0.5 && event.time < clip.end - 0.5;
        return { status: inside ? "armed" : "over", pause: false };
      }
      // A jump past the end while it plays: no stop there to fight the person.
      return event.time > clip.end ? { status: "over", pause: false } : stay;
    case "play":
      // Pressing play where it stopped carries on past the end.
      if (status === "stopped") return { status: event.time >= clip.end - 0.5 ? "over" : "armed", pause: false };
      return stay;
  }
}

/** Milliseconds until the media reaches `end` at this rate (when to look again), at least 10. */
export function msUntilEnd(clip: Clip, time: number, rate: number): number {
  const speed = rate > 0 ? rate : 1;
  return Math.max(10, Math.round(((clip.end - time) / speed) * 1000) - 20);
}

/**
 * Replaying an ended session "as live": pure timeline rules, no React and no clock of their own.
 *
 * The replay's clock runs from 0 (when the session started) to the session's length (when it
 * ended), in milliseconds. The database's history (public.session_history) says what played in
 * each stretch: one post from one position, playing at a rate or paused. Comments and reactions
 * made during the session come back at their own moment on that clock (`created_at` − start).
 */

/** A row of public.session_history as the replay needs it. */
export interface HistoryRow {
  post_id: string;
  started_at: string;
  ended_at: string | null;
  position_seconds: number;
  playing: boolean;
  rate: number;
}

/** One stretch of the session on the replay's clock. */
export interface ReplayStretch {
  postId: string;
  startMs: number;
  endMs: number;
  /** Where in the post the stretch starts (seconds). */
  from: number;
  playing: boolean;
  rate: number;
}

/** A track as the list shows it: consecutive stretches of one post. */
export interface ReplayTrack {
  postId: string;
  startMs: number;
  endMs: number;
  /** Where in the post it was first played from (seconds). */
  from: number;
}

/** Where the replay is: which post, where in it, and whether it plays there. */
export interface ReplayPosition {
  postId: string;
  seconds: number;
  playing: boolean;
  rate: number;
}

/** Something that happened at a moment of the session (a comment, a reaction). */
export interface ReplayEvent {
  id: string;
  atMs: number;
}

const ms = (iso: string) => Date.parse(iso);

/** The session's length in ms (never negative). */
export function replayLength(session: { started_at: string; ended_at: string | null }): number {
  return session.ended_at ? Math.max(0, ms(session.ended_at) - ms(session.started_at)) : 0;
}

/**
 * The history on the replay's clock, in order: each stretch clamped to the session, one left open
 * running to the end; stretches of posts the caller cannot play (`playable` says no) are dropped.
 */
export function stretchesOf(
  rows: readonly HistoryRow[],
  session: { started_at: string; ended_at: string | null },
  playable: (postId: string) => boolean = () => true,
): ReplayStretch[] {
  const start = ms(session.started_at);
  const length = replayLength(session);
  return [...rows]
    .sort((a, b) => ms(a.started_at) - ms(b.started_at))
    .map((row) => ({
      postId: row.post_id,
      startMs: clamp(ms(row.started_at) - start, 0, length),
      endMs: clamp((row.ended_at ? ms(row.ended_at) : start + length) - start, 0, length),
      from: row.position_seconds,
      playing: row.playing,
      rate: row.rate,
    }))
    .filter((stretch) => stretch.endMs > stretch.startMs && playable(stretch.postId));
}

/** The track list: consecutive stretches of one post are one track. */
export function tracksOf(stretches: readonly ReplayStretch[]): ReplayTrack[] {
  const tracks: ReplayTrack[] = [];
  for (const stretch of stretches) {
    const last = tracks.at(-1);
    if (last && last.postId === stretch.postId) last.endMs = Math.max(last.endMs, stretch.endMs);
    else tracks.push({ postId: stretch.postId, startMs: stretch.startMs, endMs: stretch.endMs, from: stretch.from });
  }
  return tracks;
}

/** What plays at `t` ms into the replay, or null between tracks (nothing was playing then). */
export function positionAt(stretches: readonly ReplayStretch[], t: number): ReplayPosition | null {
  for (let i = stretches.length - 1; i >= 0; i--) {
    const stretch = stretches[i]!;
    if (stretch.startMs > t) continue;
    if (t >= stretch.endMs) return null;
    const elapsed = stretch.playing ? ((t - stretch.startMs) / 1000) * stretch.rate : 0;
    return { postId: stretch.postId, seconds: stretch.from + elapsed, playing: stretch.playing, rate: stretch.rate };
  }
  return null;
}

/** The index of the track playing at `t` (or the last one before it), -1 before the first. */
export function trackIndexAt(tracks: readonly ReplayTrack[], t: number): number {
  let index = -1;
  tracks.forEach((track, i) => {
    if (track.startMs <= t) index = i;
  });
  return index;
}

/** An event's moment on the replay's clock, from its `created_at`: kept within the session. */
export function momentOf(createdAt: string, session: { started_at: string; ended_at: string | null }): number {
  return clamp(ms(createdAt) - ms(session.started_at), 0, replayLength(session));
}

/** The events that have happened by `t`, in the order they happened. */
export function shownAt<E extends ReplayEvent>(events: readonly E[], t: number): E[] {
  return events.filter((event) => event.atMs <= t).sort((a, b) => a.atMs - b.atMs || (a.id < b.id ? -1 : 1));
}

// ---------------------------------------------------------------------------------------------
// The replay's clock: playing or paused, at a position, anchored at a local time
// ---------------------------------------------------------------------------------------------

export interface ReplayClock {
  /** The position (ms into the replay) at `anchor`. */
  at: number;
  /** Local time (ms, e.g. performance.now()) the position was true at. */
  anchor: number;
  playing: boolean;
}

export const replayClockStart: ReplayClock = { at: 0, anchor: 0, playing: false };

/** The position at local time `now`, never past the end. */
export function clockAt(clock: ReplayClock, now: number, length: number): number {
  return clamp(clock.playing ? clock.at + (now - clock.anchor) : clock.at, 0, length);
}

/** Plays from where it is (from the start again when it had reached the end). */
export function playClock(clock: ReplayClock, now: number, length: number): ReplayClock {
  const at = clockAt(clock, now, length);
  return { at: at >= length ? 0 : at, anchor: now, playing: true };
}

export function pauseClock(clock: ReplayClock, now: number, length: number): ReplayClock {
  return { at: clockAt(clock, now, length), anchor: now, playing: false };
}

/** Moves to `to` ms, playing on if it played. */
export function seekClock(clock: ReplayClock, to: number, now: number, length: number): ReplayClock {
  return { at: clamp(to, 0, length), anchor: now, playing: clock.playing };
}

/** Whether the clock has reached the end (a playing clock stops there). */
export const clockEnded = (clock: ReplayClock, now: number, length: number) => clockAt(clock, now, length) >= length;

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

/** A position on the replay's clock: 0:07, 12:34, 1:02:03. */
export function formatReplayClock(msIn: number): string {
  const total = Math.max(0, Math.floor(msIn / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A session's length in words: "2 h", "1 h 20 min", "45 min", "under a minute". */
export function lengthInWords(msIn: number): string {
  const minutes = Math.round(msIn / 60_000);
  if (minutes < 1) return "under a minute";
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 h, 14 tracks, 120 comments". */
export function replaySummary(lengthMs: number, tracks: number, comments: number): string {
  return `${lengthInWords(lengthMs)}, ${count(tracks, "track", "tracks")}, ${count(comments, "comment", "comments")}`;
}

/**
 * When the session was, as people say it, from the reader's day: "Tonight's session" (started
 * today after 6 pm), "Today's session", "Last night's session" (yesterday after 6 pm), "Yesterday's
 * session", else "The session of 12 November". `timeZone` is the reader's (the server renders UTC).
 */
export function sessionWhen(startedAt: string, now: Date, timeZone = "UTC"): string {
  const started = new Date(startedAt);
  const day = (date: Date) =>
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
  const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(started));
  const yesterday = new Date(now.getTime() - 24 * 3_600_000);
  const evening = hour >= 18;
  if (day(started) === day(now)) return evening ? "Tonight's session" : "Today's session";
  if (day(started) === day(yesterday)) return evening ? "Last night's session" : "Yesterday's session";
  const date = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "long",
    ...(started.getUTCFullYear() === now.getUTCFullYear() ? {} : { year: "numeric" }),
  }).format(started);
  return `The session of ${date}`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

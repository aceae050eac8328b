// The ready check: before a track starts, the host's page waits until everyone following has
// buffered its first seconds (each page says so through the database: `mark_session_ready`, heard
// as event `ready` on the session's channel and kept in `session_readiness`), or until the wait the
// host chose has passed, and then says who was not ready. Readiness is advice: only the host's page
// acts on it, and it counts only the people it sees following (a mark from anyone else is ignored).

/** A page said its player has buffered this post at this position. */
export interface ReadyMark {
  userId: string;
  postId: string;
  positionSeconds: number;
  /** When the database recorded it (ms since the epoch). */
  readyAt: number;
}

/** Where a check waits for everyone: a post, from a position. */
export interface ReadyTarget {
  postId: string;
  positionSeconds: number;
}

/** Someone the check waits for, with the name the host reads. */
export interface Awaited {
  userId: string;
  name: string;
}

/** The waits the host may choose (s); 0: no ready check. The database holds the same list. */
export const readyCheckWaits = [0, 5, 10, 30] as const;

/** A mark counts for a target at most this far from where it was made (a seek since needs a new one). */
export const readyNearSeconds = 3;

/** Pressing play within this much of a post's start is starting it: the check runs. */
export const startOfTrackSeconds = 1;

const uuidish = /^[0-9a-f-]{36}$/i;

/** A `ready` message's payload or a `session_readiness` row, when it is one (anything else is ignored). */
export function readyMarkOf(value: unknown): ReadyMark | null {
  if (!value || typeof value !== "object") return null;
  const { user_id, post_id, position_seconds, ready_at } = value as Record<string, unknown>;
  if (typeof user_id !== "string" || !uuidish.test(user_id) || typeof post_id !== "string" || !uuidish.test(post_id)) return null;
  const position = Number(position_seconds);
  const at = typeof ready_at === "string" ? Date.parse(ready_at) : NaN;
  if (!Number.isFinite(position) || position < 0 || !Number.isFinite(at)) return null;
  return { userId: user_id, postId: post_id, positionSeconds: position, readyAt: at };
}

/** Marks by person and post. */
export type ReadyMarks = ReadonlyMap<string, ReadyMark>;

const markKey = (userId: string, postId: string) => `${userId}:${postId}`;

/** The marks with `mark` kept (the newest per person and post). */
export function addReadyMark(marks: ReadyMarks, mark: ReadyMark): ReadyMarks {
  const key = markKey(mark.userId, mark.postId);
  const known = marks.get(key);
  if (known && known.readyAt > mark.readyAt) return marks;
  if (known && known.readyAt === mark.readyAt && known.positionSeconds === mark.positionSeconds) return marks;
  const next = new Map(marks);
  next.set(key, mark);
  return next;
}

export function isReadyFor(marks: ReadyMarks, userId: string, target: ReadyTarget): boolean {
  const mark = marks.get(markKey(userId, target.postId));
  return mark !== undefined && Math.abs(mark.positionSeconds - target.positionSeconds) <= readyNearSeconds;
}

/** Who is ready for `target` and who is still loading, among those awaited (nobody else counts). */
export function tallyReady(awaited: readonly Awaited[], marks: ReadyMarks, target: ReadyTarget): { ready: Awaited[]; waiting: Awaited[] } {
  const ready: Awaited[] = [];
  const waiting: Awaited[] = [];
  for (const person of awaited) (isReadyFor(marks, person.userId, target) ? ready : waiting).push(person);
  return { ready, waiting };
}

/** The people a check waits for: those here following the host, once each, not the host. */
export function awaitedOf<L extends { user_id: string; following: boolean; isHost: boolean }>(
  listeners: readonly L[],
  name: (listener: L) => string,
): Awaited[] {
  const seen = new Set<string>();
  const found: Awaited[] = [];
  for (const listener of listeners) {
    if (listener.isHost || !listener.following || seen.has(listener.user_id)) continue;
    seen.add(listener.user_id);
    found.push({ userId: listener.user_id, name: name(listener) });
  }
  return found;
}

/** The host's ready-check settings, as the session keeps them. */
export interface ReadySettings {
  /** How long to wait (s); 0: no check. */
  seconds: number;
  /** Check before every track, not only when the session starts. */
  eachTrack: boolean;
}

/**
 * Whether the host's "Play" runs a check first: the check is on and the post is paused at its
 * start (starting the session, or a track, from the top) — not a play after a pause mid-track.
 */
export function checksBeforePlay(
  settings: ReadySettings,
  playback: { postId: string | null; playing: boolean; positionSeconds: number },
): boolean {
  return settings.seconds > 0 && playback.postId !== null && !playback.playing && playback.positionSeconds < startOfTrackSeconds;
}

// --- The check ---------------------------------------------------------------------------------

/** Why play started: everyone was ready, the wait ran out, or the host did not wait. */
export type StartedBecause = "everyone" | "timeout" | "anyway";

export type ReadyCheck =
  | { phase: "idle" }
  | { phase: "waiting"; target: ReadyTarget; startedAt: number; deadline: number }
  | { phase: "started"; target: ReadyTarget; because: StartedBecause; missing: Awaited[] };

export type ReadyCheckEvent =
  /** The host pressed play (`waitMs`: the chosen wait). */
  | { type: "begin"; target: ReadyTarget; now: number; waitMs: number }
  /** Time passed, or marks or listeners changed: `waiting` are those still loading now. */
  | { type: "tick"; now: number; waiting: Awaited[] }
  | { type: "start-anyway"; waiting: Awaited[] }
  /** The session moved elsewhere (another post, a seek, someone else hosts): the check is off. */
  | { type: "cancel" }
  /** The result has been read (or the next track began): back to idle. */
  | { type: "dismiss" };

export const idleCheck: ReadyCheck = { phase: "idle" };

export function readyCheckReducer(check: ReadyCheck, event: ReadyCheckEvent): ReadyCheck {
  switch (event.type) {
    case "begin":
      return { phase: "waiting", target: event.target, startedAt: event.now, deadline: event.now + Math.max(0, event.waitMs) };
    case "tick":
      if (check.phase !== "waiting") return check;
      if (event.waiting.length === 0) return { phase: "started", target: check.target, because: "everyone", missing: [] };
      if (event.now >= check.deadline) return { phase: "started", target: check.target, because: "timeout", missing: event.waiting };
      return check;
    case "start-anyway":
      if (check.phase !== "waiting") return check;
      return { phase: "started", target: check.target, because: event.waiting.length ? "anyway" : "everyone", missing: event.waiting };
    case "cancel":
      return check.phase === "waiting" ? idleCheck : check;
    case "dismiss":
      return idleCheck;
  }
}

/** Whole seconds left to wait (for the countdown), never below 0. */
export const secondsLeft = (check: ReadyCheck, now: number): number =>
  check.phase === "waiting" ? Math.max(0, Math.ceil((check.deadline - now) / 1000)) : 0;

/** "Bea", "Bea and Cy", "Bea, Cy and Dee", "Bea, Cy and 3 others". */
export function namesText(people: readonly Awaited[]): string {
  const names = people.map((person) => person.name);
  if (names.length <= 1) return names[0] ?? "";
  if (names.length <= 3) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${names.slice(0, 2).join(", ")} and ${names.length - 2} others`;
}

/** What the host reads once play has started: nothing when everyone was ready. */
export function startedText(check: ReadyCheck): string | null {
  if (check.phase !== "started" || check.missing.length === 0) return null;
  return `Started without ${namesText(check.missing)} — still loading`;
}

/** What the host reads while waiting: "Waiting for Bea…", "Waiting for 2 listeners…". */
export function waitingText(waiting: readonly Awaited[]): string {
  if (waiting.length === 0) return "Everyone is ready";
  if (waiting.length === 1) return `Waiting for ${waiting[0].name}…`;
  return `Waiting for ${waiting.length} listeners…`;
}

import {
  type Awaited,
  addReadyMark,
  idleCheck,
  type ReadyCheck,
  type ReadyCheckEvent,
  readyCheckReducer,
  type ReadyMark,
  type ReadyMarks,
  type ReadyTarget,
  secondsLeft,
  tallyReady,
} from "./ready-check";

/** How often a running check looks at who is ready and at the time (and at once on every mark). */
export const readyTickMs = 250;

export interface ReadyCheckSnapshot {
  check: ReadyCheck;
  /** Who is ready and who is still loading, for the running check's target, else for `preview`. */
  ready: Awaited[];
  waiting: Awaited[];
  /** Whole seconds left of the running check's wait. */
  secondsLeft: number;
}

export interface ReadyCheckDeps {
  /** The page's clock (ms). */
  now(): number;
  /** The check is over (everyone ready, the wait ran out, or the host did not wait): play `target` (also `setStart`). */
  start?(target: ReadyTarget): void;
}

const sameAwaited = (a: readonly Awaited[], b: readonly Awaited[]) =>
  a.length === b.length && a.every((person, i) => person.userId === b[i].userId && person.name === b[i].name);

/**
 * The host's page's ready check, as a plain store (lib/sessions/ready-check.ts holds the rules):
 * the marks heard and read, who the check waits for, and the check itself, which starts play through
 * `deps.start` once it is over. Read it with `subscribe`/`getSnapshot` (useSyncExternalStore).
 */
export class ReadyCheckStore {
  private check: ReadyCheck = idleCheck;
  private marks: ReadyMarks = new Map();
  private awaited: Awaited[] = [];
  private preview: ReadyTarget | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private snapshot: ReadyCheckSnapshot;
  private readonly subscribers = new Set<() => void>();

  private start: ((target: ReadyTarget) => void) | null;

  constructor(private readonly deps: ReadyCheckDeps) {
    this.start = deps.start ?? null;
    this.snapshot = this.build();
  }

  /** What plays once a check is over (the page's host actions, once it has them). */
  setStart(start: (target: ReadyTarget) => void): void {
    this.start = start;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  };

  readonly getSnapshot = (): ReadyCheckSnapshot => this.snapshot;

  /** A mark heard on the channel or read from the database. */
  receive(...marks: ReadyMark[]): void {
    let next = this.marks;
    for (const mark of marks) next = addReadyMark(next, mark);
    if (next === this.marks) return;
    this.marks = next;
    this.tick();
  }

  /** Who the check waits for now (those here following the host). */
  setAwaited(awaited: Awaited[]): void {
    if (sameAwaited(this.awaited, awaited)) return;
    this.awaited = awaited;
    this.tick();
  }

  /** What the host would start by pressing play (shown before any check runs); null: nothing. */
  setPreview(target: ReadyTarget | null): void {
    if (this.preview?.postId === target?.postId && this.preview?.positionSeconds === target?.positionSeconds) return;
    this.preview = target;
    this.publish();
  }

  /** Everyone awaited has said they are ready for `target` (a move there needs no wait). */
  allReady(target: ReadyTarget): boolean {
    return tallyReady(this.awaited, this.marks, target).waiting.length === 0;
  }

  /** The host pressed play: wait up to `waitMs` for everyone to be ready for `target`. */
  begin(target: ReadyTarget, waitMs: number): void {
    this.apply({ type: "begin", target, now: this.deps.now(), waitMs });
    this.stopTimer();
    this.timer = setInterval(() => this.tick(), readyTickMs);
    this.tick();
  }

  /** The host starts without waiting any longer. */
  startAnyway(): void {
    this.apply({ type: "start-anyway", waiting: this.waitingNow() });
  }

  /** The session moved elsewhere: a running check stops, without playing. */
  cancel(): void {
    this.apply({ type: "cancel" });
  }

  /** The result is done with. */
  dismiss(): void {
    this.apply({ type: "dismiss" });
  }

  stop(): void {
    this.stopTimer();
  }

  private waitingNow(): Awaited[] {
    return this.check.phase === "waiting" ? tallyReady(this.awaited, this.marks, this.check.target).waiting : [];
  }

  private tick(): void {
    if (this.check.phase === "waiting") this.apply({ type: "tick", now: this.deps.now(), waiting: this.waitingNow() });
    else this.publish();
  }

  private apply(event: ReadyCheckEvent): void {
    const before = this.check;
    this.check = readyCheckReducer(before, event);
    if (this.check.phase !== "waiting") this.stopTimer();
    this.publish();
    if (before.phase === "waiting" && this.check.phase === "started") this.start?.(this.check.target);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private build(): ReadyCheckSnapshot {
    const target = this.check.phase === "waiting" ? this.check.target : this.preview;
    const { ready, waiting } = target ? tallyReady(this.awaited, this.marks, target) : { ready: [], waiting: [] };
    return { check: this.check, ready, waiting, secondsLeft: secondsLeft(this.check, this.deps.now()) };
  }

  private publish(): void {
    const next = this.build();
    const last = this.snapshot;
    if (
      next.check === last.check &&
      next.secondsLeft === last.secondsLeft &&
      sameAwaited(next.ready, last.ready) &&
      sameAwaited(next.waiting, last.waiting)
    )
      return;
    this.snapshot = next;
    for (const listener of this.subscribers) listener();
  }
}

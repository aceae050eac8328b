// Change tracking for a plain store (./engine.ts): effects that run again when what they depend on
// changes, and values computed again only then — with React's rules, so a store that moves a hook's
// effects out of React keeps their timing and order.

export interface Effect {
  /** What the effect depends on, compared one by one with Object.is. */
  deps(): readonly unknown[];
  /** Sets the effect up; returns its cleanup, if any. */
  run(): (() => void) | void;
}

const sameDeps = (a: readonly unknown[] | null, b: readonly unknown[]) =>
  a !== null && a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

/**
 * A list of effects, in the order React would run them: `sync()` cleans up every effect whose deps
 * changed, then sets each of them up again, in declaration order; `clear()` cleans them all up (in
 * order), and the next `sync()` sets every one up again (as a remount would).
 */
export class Effects {
  private readonly last: (readonly unknown[] | null)[];
  private readonly cleanups: ((() => void) | undefined)[];

  constructor(private readonly list: readonly Effect[]) {
    this.last = list.map(() => null);
    this.cleanups = list.map(() => undefined);
  }

  sync(): void {
    const deps = this.list.map((effect) => effect.deps());
    const changed = deps.map((next, i) => !sameDeps(this.last[i], next));
    changed.forEach((yes, i) => yes && this.cleanUp(i));
    changed.forEach((yes, i) => {
      if (!yes) return;
      this.last[i] = deps[i];
      this.cleanups[i] = this.list[i].run() ?? undefined;
    });
  }

  clear(): void {
    this.list.forEach((_, i) => {
      this.cleanUp(i);
      this.last[i] = null;
    });
  }

  private cleanUp(i: number): void {
    const cleanup = this.cleanups[i];
    this.cleanups[i] = undefined;
    cleanup?.();
  }
}

/** `compute`, called again only when its arguments change (Object.is, one by one); else its last result. */
export function memo<A extends readonly unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  let last: { args: A; value: R } | null = null;
  return (...args: A) => {
    if (last && sameDeps(last.args, args)) return last.value;
    last = { args, value: compute(...args) };
    return last.value;
  };
}

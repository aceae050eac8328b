/**
 * Lets the page start a sound before it redraws. When the session moves on to a post held ready,
 * the player starts that element within the change's own task (components/sessions/session-player.tsx).
 * React would render the change right there, and the browser (which runs a timer's task before a
 * media element's events when it likes) would tell of the element playing only after that render —
 * with several pages on one machine, a render that also holds the CPU as the sound starts. A hold
 * keeps React's notices until the element says it plays (`release`), or `maxMs` at most.
 *
 * React's listener is always told after the other listeners of the same change (a microtask), so
 * a hold taken by any of them counts, whatever order they subscribed in.
 */
export class RenderGate {
  private held: Set<() => void> | null = null;

  constructor(private readonly later: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms)) {}

  /** Holds the page's renders until the answer is called or `maxMs` passes; holds taken meanwhile end with the first. */
  hold(maxMs: number): () => void {
    this.held ??= new Set();
    const held = this.held;
    const release = () => {
      if (this.held !== held) return;
      this.held = null;
      for (const listener of held) listener();
    };
    this.later(release, maxMs);
    return release;
  }

  /** `listener` (React's), told of a change once the change's other listeners have run, or when a hold ends. */
  pass(listener: () => void): () => void {
    return () =>
      queueMicrotask(() => {
        if (this.held) this.held.add(listener);
        else listener();
      });
  }
}

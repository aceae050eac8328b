/** A fixed-window counter per key, as GoTrue's per-IP limiters count requests. */
export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  /** For per-request limits: the header whose first value is the key (GoTrue's rate-limit header); "" limits nothing. */
  readonly keyHeader: string;
  constructor(limit: number, windowSeconds: number, keyHeader = "") {
    this.limit = limit;
    this.windowMs = windowSeconds * 1000;
    this.keyHeader = keyHeader;
  }

  /** Counts `count` events for `key`; false (and nothing counted) when that would exceed the limit. */
  take(key: string, count = 1): boolean {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.sweep(now);
    }
    if (window.count + count > this.limit) return false;
    window.count += count;
    return true;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

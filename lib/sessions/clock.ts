/**
 * The page's estimate of the server's clock, NTP-style: each sample asks the server for its time
 * (the `server_clock_ms` RPC) and notes when the request left and the answer came back; the server
 * read its clock somewhere in between, best guessed at the midpoint. The sample with the shortest
 * round trip bounds the error most tightly (±RTT/2), so of several samples that one is kept.
 * Local time is monotonic (performance.timeOrigin + performance.now()), so a wall-clock change on
 * the device does not move the estimate.
 */

export interface ClockSample {
  /** Local ms when the request left. */
  sentAt: number;
  /** Local ms when the answer arrived. */
  receivedAt: number;
  /** The server's clock in the answer (ms since the epoch). */
  serverMs: number;
}

export interface ClockEstimate {
  /** Add to local ms to get server ms. */
  offsetMs: number;
  /** Round trip of the sample the estimate comes from: the estimate is within ±rttMs/2. */
  rttMs: number;
}

export function estimateOf(sample: ClockSample): ClockEstimate {
  const rttMs = Math.max(0, sample.receivedAt - sample.sentAt);
  return { offsetMs: sample.serverMs - (sample.sentAt + sample.receivedAt) / 2, rttMs };
}

/** The estimate from the sample with the shortest round trip; null without samples. */
export function bestEstimate(samples: readonly ClockSample[]): ClockEstimate | null {
  let best: ClockEstimate | null = null;
  for (const sample of samples) {
    if (!Number.isFinite(sample.serverMs) || sample.receivedAt < sample.sentAt) continue;
    const estimate = estimateOf(sample);
    if (!best || estimate.rttMs < best.rttMs) best = estimate;
  }
  return best;
}

export const localNow = (): number => performance.timeOrigin + performance.now();

export interface ServerClockOptions {
  /** Samples per estimate. */
  samples?: number;
  /** Re-estimate this often while running. */
  everyMs?: number;
  now?: () => number;
}

/**
 * Keeps an estimate of the server's clock: `estimate()` takes a few samples (one after another, so
 * they do not queue behind each other); `start()` re-estimates every `everyMs`. A fresh estimate
 * replaces the old one only when its round trip is no worse than twice the old one's (a congested
 * moment must not make it worse), or when the old one is over a few minutes old.
 */
export class ServerClock {
  private current: ClockEstimate | null = null;
  private currentAt = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<ClockEstimate | null> | null = null;
  private readonly samples: number;
  private readonly everyMs: number;
  private readonly now: () => number;

  constructor(
    private ask: () => Promise<number>,
    options: ServerClockOptions = {},
  ) {
    this.samples = options.samples ?? 5;
    this.everyMs = options.everyMs ?? 30_000;
    this.now = options.now ?? localNow;
  }

  /** Where samples come from (the page's data client loads after the clock is made). */
  setSource(ask: () => Promise<number>): void {
    this.ask = ask;
  }

  /** The estimate in use (null until the first one). */
  get lastEstimate(): ClockEstimate | null {
    return this.current;
  }

  /** The server's clock now (ms since the epoch), as well as the page knows it; the local clock until estimated. */
  serverNow(): number {
    return this.serverTimeAt(this.now());
  }

  /** The server's time at a moment of the local clock (ms), as well as the page knows it. */
  serverTimeAt(localMs: number): number {
    return localMs + (this.current?.offsetMs ?? 0);
  }

  /** Re-estimating on a timer (between start() and stop()). */
  get started(): boolean {
    return this.timer !== undefined;
  }

  get ready(): boolean {
    return this.current !== null;
  }

  /** Samples the server and updates the estimate; concurrent calls share one run. */
  estimate(): Promise<ClockEstimate | null> {
    this.running ??= this.sample().finally(() => (this.running = null));
    return this.running;
  }

  private async sample(): Promise<ClockEstimate | null> {
    const taken: ClockSample[] = [];
    for (let i = 0; i < this.samples; i++) {
      const sentAt = this.now();
      try {
        const serverMs = await this.ask();
        taken.push({ sentAt, receivedAt: this.now(), serverMs });
      } catch {
        // offline or refused: the samples that came back still count
      }
    }
    const fresh = bestEstimate(taken);
    if (!fresh) return this.current;
    const stale = this.now() - this.currentAt > 5 * 60_000;
    if (!this.current || stale || fresh.rttMs <= this.current.rttMs * 2 + 2) {
      this.current = fresh;
      this.currentAt = this.now();
    }
    return this.current;
  }

  start(): void {
    if (this.timer) return;
    void this.estimate();
    this.timer = setInterval(() => void this.estimate(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

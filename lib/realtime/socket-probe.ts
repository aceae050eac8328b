/** What the probe needs of the live client (realtime-js' RealtimeClient). */
export interface ProbedSocket {
  /** The ref of a heartbeat sent and not yet answered (null when none is). */
  readonly pendingHeartbeatRef: string | null;
  sendHeartbeat(): Promise<void>;
}

const probedAt = new WeakMap<object, number>();

/** How long an unanswered heartbeat gets, once back online, before the probe asks again. */
export const pendingHeartbeatGraceMs = 3_000;

/**
 * Back online: ask the socket for a heartbeat now, so a dead socket is noticed at once rather than
 * at the next heartbeat. Once per moment for the whole page: every connection on the page hears the
 * same `online` event.
 *
 * realtime-js takes a heartbeat sent before the previous one is answered as a timeout: it closes the
 * socket and opens another a second later, and meanwhile the page's presence is gone from every
 * channel. A heartbeat sent while offline is often still on its way (the browser held it), so when
 * one is pending the probe first gives its answer `pendingHeartbeatGraceMs` to arrive, and asks
 * only if that same heartbeat is still unanswered then.
 */
export function probeSocketAfterOnline(live: ProbedSocket, setTimer: (run: () => void, ms: number) => unknown = setTimeout): void {
  const now = Date.now();
  if (now - (probedAt.get(live) ?? -Infinity) < 5_000) return;
  probedAt.set(live, now);
  const pending = live.pendingHeartbeatRef;
  if (!pending) return void live.sendHeartbeat();
  setTimer(() => {
    if (live.pendingHeartbeatRef === pending) void live.sendHeartbeat();
  }, pendingHeartbeatGraceMs);
}

import type { LiveClient } from "@/lib/supabase/live-client";

const probedAt = new WeakMap<object, number>();

/**
 * Back online: ask the socket for a heartbeat now, so a dead socket is noticed at once rather than
 * at the next heartbeat. Once per moment for the whole page: every connection on the page hears the
 * same `online` event, and realtime-js takes a second heartbeat sent before the first is answered
 * as a timeout — it would drop a healthy socket and rejoin every channel.
 */
export function probeSocketAfterOnline(live: LiveClient): void {
  const now = Date.now();
  if (now - (probedAt.get(live) ?? -Infinity) < 5_000) return;
  probedAt.set(live, now);
  void live.sendHeartbeat();
}

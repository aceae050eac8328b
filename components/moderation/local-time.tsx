"use client";

import { useSyncExternalStore } from "react";

const noop = () => () => undefined;

/** "21:40" today, else "28 Nov, 21:40": in the reader's own locale and time zone. */
function formatLocalTime(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  const sameDay = new Date(now).toDateString() === at.toDateString();
  return sameDay
    ? at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : at.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/**
 * A moment in time as the reader's browser says it (their locale and time zone); the server, which
 * knows neither, renders it in UTC until the page hydrates.
 */
export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const inBrowser = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  const text = inBrowser ? formatLocalTime(iso) : `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}

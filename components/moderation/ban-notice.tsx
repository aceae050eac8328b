"use client";

import { useSyncExternalStore } from "react";
import { moderationMessages, untilWords } from "@/lib/moderation/errors";

const noop = () => () => undefined;

/**
 * "You were banned from this room" (until when, in the reader's own time zone; the server renders the
 * time in UTC until the page hydrates), for a banned person who still sees a public room as a visitor.
 */
export function BanNotice({ until }: { until: string | null }) {
  const inBrowser = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  const when = until
    ? inBrowser
      ? untilWords(until, { locale: navigator.language })
      : untilWords(until, { timeZone: "UTC" }) + " UTC"
    : null;
  return (
    <p role="status" className="text-sm font-medium" data-testid="ban-notice">
      {when ? moderationMessages.bannedUntil(when) : moderationMessages.bannedForGood}
    </p>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";
import { nextTask } from "@/lib/next-task";
import { bellLabel, unreadBadge } from "@/lib/notifications/bell";
import { unreadCount } from "@/lib/notifications/unread-count";

/**
 * The header's bell: a link to /notifications with the unread count. The count comes with the
 * page's render; the code that keeps it live (the person's channel, and a read of the count on each
 * event) loads after first paint, on its own, so every page's first load stays as it was.
 */
export function BellLink({ userId, rendered }: { userId: string; rendered: number | null }) {
  const pathname = usePathname();
  const count = useSyncExternalStore(
    unreadCount.subscribe,
    () => unreadCount.get() ?? rendered,
    () => rendered,
  );

  useEffect(() => unreadCount.seed(rendered), [rendered]);

  useEffect(() => {
    let active = true;
    let stop = () => {};
    void nextTask()
      .then(() => import("@/lib/notifications/live-count"))
      .then(
        ({ followUnreadCount }) => {
          if (active) stop = followUnreadCount(userId);
        },
        () => undefined, // offline: the count stays as rendered
      );
    return () => {
      active = false;
      stop();
    };
  }, [userId]);

  const badge = unreadBadge(count ?? 0);
  return (
    <Link
      href="/notifications"
      aria-label={bellLabel(count)}
      aria-current={pathname === "/notifications" ? "page" : undefined}
      className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-muted hover:bg-line/60 hover:text-ink aria-[current=page]:text-ink"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {badge ? (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="absolute right-0.5 top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent px-1 text-[11px] font-semibold leading-none text-accent-ink ring-2 ring-raised"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  );
}

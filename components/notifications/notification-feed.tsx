"use client";

import Link from "next/link";
import { useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { arrivedIds, markedRead, mergeNotifications, nextCursor, type NotificationsCursor } from "@/lib/notifications/paging";
import { fetchNotifications, markNotificationsRead } from "@/lib/notifications/rpc";
import type { NotificationItem } from "@/lib/notifications/types";
import { unreadCount } from "@/lib/notifications/unread-count";
import { userChannel, type UserChannelEvent } from "@/lib/notifications/user-channel";
import { loadLiveClient } from "@/lib/supabase/browser-clients";
import { NotificationEntry } from "./notification-item";

/** How long a notification that just arrived stays highlighted. */
const arrivedMs = 4_000;

/**
 * The person's notifications, newest first: older pages added below on request (what is shown
 * stays), new ones added at the top as the database announces them on the person's channel, and
 * each opened one marked read. `held` lists the held-back ones (from people who share no room with
 * them), which are never announced live.
 */
export function NotificationFeed({
  userId,
  initial,
  initialError,
  held,
  renderedAt,
}: {
  userId: string;
  initial: NotificationItem[];
  initialError: string | null;
  held: boolean;
  renderedAt: number;
}) {
  const [items, setItems] = useState(initial);
  const [cursor, setCursor] = useState<NotificationsCursor | null>(() => nextCursor(initial));
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [markError, setMarkError] = useState<string | null>(null);
  const [marking, setMarking] = useState(false);
  const [arrived, setArrived] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState("");
  const [now, setNow] = useState(renderedAt);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  const unread = useSyncExternalStore(unreadCount.subscribe, unreadCount.get, () => null);
  const anyUnreadShown = items.some((item) => item.readAt === null);

  // The newest page again, merged in by id: new ones at the top, read ones marked so.
  const readNewest = useEffectEvent(async (event: UserChannelEvent) => {
    const page = await fetchNotifications({ held });
    if (!page.ok) return;
    const before = itemsRef.current;
    const after = mergeNotifications(before, page.data);
    const fresh = event.type === "read" ? [] : arrivedIds(before, after);
    setNow(Date.now());
    setItems(after);
    if (fresh.length) {
      setArrived((current) => new Set([...current, ...fresh]));
      setAnnouncement(fresh.length === 1 ? "1 new notification" : `${fresh.length} new notifications`);
      setTimeout(() => setArrived((current) => new Set([...current].filter((id) => !fresh.includes(id)))), arrivedMs);
    }
  });

  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    void loadLiveClient().then(
      (live) => {
        if (active) unsubscribe = userChannel(live, userId).subscribe((event) => void readNewest(event));
      },
      () => undefined, // offline: the list stays as rendered; a reload reads it again
    );
    return () => {
      active = false;
      unsubscribe();
    };
  }, [userId]);

  const showOlder = async () => {
    if (!cursor) return;
    setLoadingOlder(true);
    setOlderError(null);
    const page = await fetchNotifications({ cursor, held });
    setLoadingOlder(false);
    if (!page.ok) return setOlderError(page.error);
    setItems((current) => mergeNotifications(current, page.data));
    setCursor(nextCursor(page.data));
  };

  const open = (item: NotificationItem) => {
    if (item.readAt !== null) return;
    setItems((current) => markedRead(current, [item.id], new Date().toISOString()));
    if (!item.held) {
      const count = unreadCount.get();
      if (count !== null) unreadCount.set(Math.max(0, count - 1));
    }
    void markNotificationsRead([item.id]);
  };

  const markAll = async () => {
    setMarking(true);
    setMarkError(null);
    // The held-back list marks what it shows; the main list marks everything, as the bell counts it.
    const ids = held ? items.filter((item) => item.readAt === null).map((item) => item.id) : null;
    const marked = await markNotificationsRead(ids);
    setMarking(false);
    if (!marked.ok) return setMarkError(marked.error);
    setItems((current) => markedRead(current, ids, new Date().toISOString()));
    if (!held) unreadCount.set(0);
  };

  const canMarkAll = anyUnreadShown || (!held && unread !== null && unread > 0);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{held ? "Held back" : "Notifications"}</h1>
        {canMarkAll ? (
          <Button onClick={() => void markAll()} disabled={marking}>
            {marking ? "Marking…" : "Mark all read"}
          </Button>
        ) : null}
      </div>
      {held ? (
        <p className="text-muted">
          From people you don&apos;t share a room with. They wait here and aren&apos;t counted on the bell.{" "}
          <Link href="/notifications" className={linkClasses}>
            Back to your notifications
          </Link>
        </p>
      ) : (
        <p className="text-sm text-muted">
          <Link href="/notifications?show=held" className={linkClasses}>
            Held back
          </Link>{" "}
          — from people you don&apos;t share a room with
        </p>
      )}
      {markError ? <Alert tone="error">{markError}</Alert> : null}
      {initialError ? <Alert tone="error">{initialError}</Alert> : null}
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {items.length === 0 && !initialError ? (
        <p className="py-8 text-center text-muted">
          {held
            ? "Nothing held back. Notifications from people you don't share a room with would wait here."
            : "No notifications yet — when someone replies to you, mentions you or reacts to your comments, you'll see it here."}
        </p>
      ) : (
        <ol aria-label={held ? "Held-back notifications" : "Notifications"} className="-mx-3 flex flex-col gap-1">
          {items.map((item) => (
            <NotificationEntry key={item.id} item={item} now={now} arrived={arrived.has(item.id)} onOpen={open} />
          ))}
        </ol>
      )}
      {cursor ? (
        <div className="flex flex-col items-center gap-2">
          <Button variant="secondary" onClick={() => void showOlder()} disabled={loadingOlder}>
            {loadingOlder ? "Loading…" : "Show older"}
          </Button>
          {olderError ? <Alert tone="error">{olderError}</Alert> : null}
        </div>
      ) : null}
    </>
  );
}

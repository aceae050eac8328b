"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { encodeCursor } from "@/lib/posts/cursor";
import { appendActivity, nextActivityCursor, type ActivityCursor, type ActivityItem } from "@/lib/profiles/activity";
import { fetchProfileActivity } from "@/lib/profiles/rpc";
import { ActivityEntry } from "./activity-entry";

/**
 * A person's posts and comments in public rooms, newest first: the first page rendered by the server,
 * older ones added below on "Show more" (what is shown stays). Without JavaScript "Show more" is a
 * link to the profile's next page (`?before=`), which `paged` marks. `own`: the person is looking at
 * their own profile, so the empty list says what to do.
 */
export function ProfileActivity({
  profileId,
  username,
  paged,
  initial,
  initialError,
  own,
  renderedAt,
}: {
  profileId: string;
  username: string;
  paged: boolean;
  initial: ActivityItem[];
  initialError: string | null;
  own: boolean;
  renderedAt: number;
}) {
  const [items, setItems] = useState(initial);
  const [cursor, setCursor] = useState<ActivityCursor | null>(() => nextActivityCursor(initial));
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(renderedAt);

  const showMore = async () => {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    const page = await fetchProfileActivity(profileId, cursor);
    setLoading(false);
    if (!page.ok) return setError(page.error);
    setNow(Date.now());
    setItems((current) => appendActivity(current, page.data));
    setCursor(nextActivityCursor(page.data));
  };

  const newest = paged ? (
    <Link href={`/u/${username}`} className={linkClasses}>
      Newest posts and comments
    </Link>
  ) : null;
  if (initialError) return <Alert tone="error">{initialError}</Alert>;
  if (items.length === 0 && paged) return <p className="text-muted">Nothing older. {newest}</p>;
  if (items.length === 0) {
    return own ? (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-muted">
        No posts or comments yet. Open a room, share a track or comment on the second that got you — it shows up here.{" "}
        <Link href="/" className={linkClasses}>
          Find a room
        </Link>
      </p>
    ) : (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-muted">No posts or comments yet.</p>
    );
  }
  return (
    <>
      <ol aria-label="Posts and comments" className="flex flex-col gap-3">
        {items.map((item) => (
          <ActivityEntry key={item.id} item={item} now={now} />
        ))}
      </ol>
      {cursor ? (
        <div className="flex flex-col items-center gap-2">
          <Link
            href={`/u/${username}?before=${encodeURIComponent(encodeCursor({ createdAt: cursor.before_created, id: cursor.before_id }))}`}
            className={buttonClasses("secondary", `min-h-11 ${loading ? "pointer-events-none opacity-60" : ""}`)}
            aria-disabled={loading || undefined}
            scroll={false}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return; // a new tab: the next page there
              event.preventDefault();
              void showMore();
            }}
          >
            {loading ? "Loading…" : "Show more"}
          </Link>
          {error ? <Alert tone="error">{error}</Alert> : null}
        </div>
      ) : null}
      {newest ? <p className="text-center text-sm">{newest}</p> : null}
    </>
  );
}

"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { appendActivity, nextActivityCursor, type ActivityCursor, type ActivityItem } from "@/lib/profiles/activity";
import { fetchProfileActivity } from "@/lib/profiles/rpc";
import { ActivityEntry } from "./activity-entry";

/**
 * A person's posts and comments in public rooms, newest first: the first page rendered by the server,
 * older ones added below on "Show more" (what is shown stays). `own`: the person is looking at their
 * own profile, so the empty list says what to do.
 */
export function ProfileActivity({
  profileId,
  initial,
  initialError,
  own,
  renderedAt,
}: {
  profileId: string;
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

  if (initialError) return <Alert tone="error">{initialError}</Alert>;
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
          <Button variant="secondary" className="min-h-11" onClick={() => void showMore()} disabled={loading}>
            {loading ? "Loading…" : "Show more"}
          </Button>
          {error ? <Alert tone="error">{error}</Alert> : null}
        </div>
      ) : null}
    </>
  );
}

import Link from "next/link";
import { formatDuration } from "@/components/posts/format";
import type { TopMoment } from "@/lib/home/queries";

/**
 * The moments people talked about most this week, in public rooms: where in a track the comments
 * gathered, how many, and one of them. Each opens its post.
 */
export function TopMoments({ moments }: { moments: TopMoment[] }) {
  if (moments.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-sm text-muted">
        No moments this week yet. Open a room, play a post and comment at the second that got you — it shows up here.
      </p>
    );
  }
  return (
    <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {moments.map((moment) => (
        <li
          key={`${moment.post.id}-${moment.atSeconds}`}
          className="relative flex min-w-0 flex-col gap-2 rounded-2xl border border-line bg-raised p-4 shadow-sm hover:border-accent/50"
          data-testid="top-moment"
        >
          <p className="flex items-baseline gap-2 text-sm">
            <span className="rounded-md bg-accent/10 px-1.5 py-0.5 font-mono font-semibold text-accent tabular-nums">
              {formatDuration(moment.atSeconds) ?? "0:00"}
            </span>
            <span className="text-muted">
              {moment.comments} {moment.comments === 1 ? "comment" : "comments"}
            </span>
          </p>
          <blockquote className="line-clamp-2 text-sm [overflow-wrap:anywhere]">
            “{moment.sample.body}”{moment.sample.author ? <span className="text-muted"> — {moment.sample.author}</span> : null}
          </blockquote>
          <p className="mt-auto min-w-0 truncate text-sm">
            <Link href={momentHref(moment)} className="font-semibold after:absolute after:inset-0 hover:text-accent">
              {moment.post.title}
            </Link>
            <span className="text-muted"> in {moment.room.name}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}

/** The post the moment is in (the post page does not open at a time yet: the card shows where to go). */
function momentHref(moment: TopMoment): string {
  return `/r/${moment.room.slug}/p/${moment.post.id}`;
}

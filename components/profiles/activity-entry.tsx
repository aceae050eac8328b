import Link from "next/link";
import { formatActivity, formatDuration } from "@/components/posts/format";
import { activityHref, type ActivityItem } from "@/lib/profiles/activity";

/**
 * One thing the person made, as a card whose whole face is the link: a post (its title) or a comment
 * (its words, where in the media, on which post), with the room and how long ago.
 */
export function ActivityEntry({ item, now }: { item: ActivityItem; now: number }) {
  const when = formatActivity(item.createdAt, now);
  return (
    <li
      className="relative flex min-w-0 flex-col gap-1 rounded-2xl border border-line bg-raised p-4 shadow-sm hover:border-accent/50"
      data-testid="profile-activity-item"
      data-kind={item.kind}
    >
      {item.kind === "post" ? (
        <>
          <p className="text-sm text-muted">Posted</p>
          <p className="min-w-0 font-semibold [overflow-wrap:anywhere]">
            <Link href={activityHref(item)} className="after:absolute after:inset-0 after:rounded-2xl hover:text-accent">
              {item.post.title}
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="min-w-0 truncate text-sm text-muted">
            {item.isReply ? "Replied" : "Commented"}
            {item.atSeconds !== null ? (
              <>
                {" at "}
                <span className="font-mono font-semibold text-accent tabular-nums">{formatDuration(item.atSeconds) ?? "0:00"}</span>
              </>
            ) : null}
            {" on "}
            <span className="font-medium text-ink">{item.post.title}</span>
          </p>
          <p className="line-clamp-3 min-w-0 whitespace-pre-line [overflow-wrap:anywhere]">
            <Link href={activityHref(item)} className="after:absolute after:inset-0 after:rounded-2xl hover:text-accent">
              {item.body}
            </Link>
          </p>
        </>
      )}
      <p className="min-w-0 truncate text-sm text-muted">
        in {item.room.name} · <time dateTime={item.createdAt}>{when}</time>
      </p>
    </li>
  );
}

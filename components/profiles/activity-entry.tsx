import Link from "next/link";
import { commentCountText, formatActivity, formatDuration } from "@/components/posts/format";
import { activityHref, type ActivityItem, type PostActivity } from "@/lib/profiles/activity";

/** A post's thumbnail (or a placeholder for an upload or a link without one), with its length. */
function Thumbnail({ item }: { item: PostActivity }) {
  const duration = formatDuration(item.durationSeconds);
  return (
    <div className="relative aspect-video w-24 shrink-0 self-start overflow-hidden rounded-lg bg-accent/10 sm:w-32">
      {item.thumbnailUrl ? (
        // eslint-disable-next-line @next/next/no-img-element -- provider thumbnails from the stored embed details, as the room's feed shows them
        <img src={item.thumbnailUrl} alt="" className="h-full w-full object-cover" loading="lazy" />
      ) : (
        <span aria-hidden="true" className="flex h-full w-full items-center justify-center text-2xl text-accent">
          {item.upload ? "♪" : "▶"}
        </span>
      )}
      {duration ? (
        <span className="absolute bottom-1 right-1 rounded bg-black/75 px-1 text-xs text-white tabular-nums">{duration}</span>
      ) : null}
    </div>
  );
}

/**
 * One thing the person made, as a card whose whole face is the link: a post (its thumbnail, title
 * and comments) or a comment (its words, where in the media, on which post), with the room and how
 * long ago.
 */
export function ActivityEntry({ item, now }: { item: ActivityItem; now: number }) {
  const when = formatActivity(item.createdAt, now);
  const linkClasses = "after:absolute after:inset-0 after:rounded-2xl hover:text-accent";
  return (
    <li
      className="relative flex min-w-0 gap-3 rounded-2xl border border-line bg-raised p-3 shadow-sm hover:border-accent/50 sm:p-4"
      data-testid="profile-activity-item"
      data-kind={item.kind}
    >
      {item.kind === "post" ? <Thumbnail item={item} /> : null}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {item.kind === "post" ? (
          <>
            <p className="text-sm text-muted">Posted{item.commentCount > 0 ? <> · {commentCountText(item.commentCount)}</> : null}</p>
            <p className="min-w-0 font-semibold [overflow-wrap:anywhere]">
              <Link href={activityHref(item)} className={linkClasses}>
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
              <Link href={activityHref(item)} className={linkClasses}>
                {item.body}
              </Link>
            </p>
          </>
        )}
        <p className="min-w-0 truncate text-sm text-muted">
          in {item.room.name} · <time dateTime={item.createdAt}>{when}</time>
        </p>
      </div>
    </li>
  );
}

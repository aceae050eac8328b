import Link from "next/link";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import type { Post } from "@/lib/posts/queries";
import { linkHostname } from "@/lib/media/url-rules";
import { commentCountText, formatActivity, formatDuration, formatPostDate } from "./format";

/** A post in the feed: its thumbnail (or a placeholder), title, where it is from, who posted it, its comments and last activity. */
export function PostCard({ post, slug, now }: { post: Post; slug: string; now: number }) {
  const thumbnail = post.embed?.thumbnail_url;
  const duration = formatDuration(post.duration_seconds === null ? null : Number(post.duration_seconds));
  const source =
    post.media_kind === "upload"
      ? "Uploaded file"
      : (post.embed?.provider_name ?? post.embed?.provider ?? linkHostname(post.media_url) ?? "Link");
  return (
    <li data-testid="post-card" className="flex gap-3 rounded-2xl border border-line bg-raised p-3 sm:gap-4 sm:p-4">
      <div className="relative aspect-video w-28 shrink-0 overflow-hidden rounded-lg bg-accent/10 sm:w-40">
        {thumbnail ? (
          // eslint-disable-next-line @next/next/no-img-element -- provider thumbnails from the embed metadata; no optimiser
          <img src={thumbnail} alt="" className="h-full w-full object-cover" loading="lazy" />
        ) : (
          <span aria-hidden="true" className="flex h-full w-full items-center justify-center text-2xl text-accent">
            {post.media_kind === "upload" ? "♪" : "▶"}
          </span>
        )}
        {duration ? (
          <span className="absolute bottom-1 right-1 rounded bg-black/75 px-1 text-xs text-white tabular-nums">{duration}</span>
        ) : null}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h3 className="font-semibold [overflow-wrap:anywhere]">
          <Link href={`/r/${slug}/p/${post.id}`} className="hover:underline">
            {post.title}
          </Link>
        </h3>
        <p className="truncate text-sm text-muted">
          {source}
          {post.embed?.author ? ` · ${post.embed.author}` : ""}
        </p>
        <p className="flex min-w-0 items-center gap-2 text-sm text-muted">
          <Avatar path={post.author?.avatar_path} name={post.author?.display_name ?? "?"} size={20} />
          <PersonName person={post.author} />
          <span aria-hidden="true">·</span>
          <time dateTime={post.created_at} className="whitespace-nowrap">
            {formatPostDate(post.created_at)}
          </time>
        </p>
        {post.activity ? (
          <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm text-muted" data-testid="post-activity">
            <span className="whitespace-nowrap">
              <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1 inline h-3.5 w-3.5 align-[-2px]" fill="currentColor">
                <path d="M2 3.5A1.5 1.5 0 0 1 3.5 2h9A1.5 1.5 0 0 1 14 3.5v6a1.5 1.5 0 0 1-1.5 1.5H7l-3 3v-3h-.5A1.5 1.5 0 0 1 2 9.5v-6Z" />
              </svg>
              {commentCountText(post.activity.comment_count)}
            </span>
            {post.activity.comment_count > 0 ? (
              <>
                <span aria-hidden="true">·</span>
                <span className="whitespace-nowrap">
                  active {/* relative to the time the page was rendered, passed down so server and browser agree */}
                  <time dateTime={post.activity.last_activity_at}>{formatActivity(post.activity.last_activity_at, now)}</time>
                </span>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  );
}

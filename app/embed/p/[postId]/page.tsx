import type { Metadata } from "next";
import Link from "next/link";
import { cache } from "react";
import { PostMoments } from "@/components/moments/moments-context";
import { MomentTimeline } from "@/components/moments/timeline";
import { PlayerBar } from "@/components/moments/player-bar";
import { PostPlayer } from "@/components/posts/post-player";
import { linkClasses } from "@/components/ui/link";
import { embedPlayback, isAudioPost, publicPost } from "@/lib/embed/queries";
import { parseStartTime } from "@/lib/moments/start-time";

type Params = Promise<{ postId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The post as a visitor of its room would read it, once per request; null unless it may be embedded. */
const load = cache(publicPost);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const loaded = await load((await params).postId);
  return {
    title: loaded ? `${loaded.post.title} · ${loaded.room.name}` : "Not available",
    robots: { index: false },
  };
}

const newTab = { target: "_blank", rel: "noopener" } as const;

/**
 * The embeddable player (other sites frame it; oEmbed's iframe points here): a public room's post
 * with its player and the comments on its timeline, for anyone, signed in or not. Anything else —
 * a gated room's post, one hidden for review, none at all — shows the same plain page, which names
 * nothing of it.
 */
export default async function EmbedPostPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const loaded = await load((await params).postId);
  if (!loaded) {
    return (
      <main id="main" className="flex h-dvh flex-col items-center justify-center gap-2 bg-surface p-4 text-center text-ink">
        <h1 className="font-semibold">This post can&apos;t be shown here</h1>
        <p className="text-sm text-muted">
          It may be in a members-only room or no longer there.{" "}
          <Link href="/" {...newTab} className={linkClasses}>
            Open Cuepoint
          </Link>
        </p>
      </main>
    );
  }
  const { post, room } = loaded;
  const [{ src, hostedPlayer, moments }, query] = await Promise.all([embedPlayback(post), searchParams]);
  const audio = isAudioPost(post);
  const durationSeconds = post.duration_seconds === null ? null : Number(post.duration_seconds);
  const postHref = `/r/${room.slug}/p/${post.id}`;
  return (
    <main id="main" className="flex h-dvh flex-col gap-1 overflow-y-auto bg-surface px-3 py-2 text-ink">
      <header className="flex min-w-0 items-center gap-3">
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-sm font-semibold" title={post.title}>
            {post.title}
          </h1>
          <p className="truncate text-xs text-muted">{room.name}</p>
        </div>
        <Link href={postHref} {...newTab} className={`shrink-0 py-2 text-sm ${linkClasses}`}>
          Open on Cuepoint<span className="sr-only"> (opens in a new tab)</span>
          <span aria-hidden="true"> ↗</span>
        </Link>
      </header>
      <PostMoments
        post={{ id: post.id, durationSeconds }}
        room={{ id: room.id, slug: room.slug, name: room.name, gated: false }}
        viewer={{ userId: null, canComment: false, canModerate: false }}
        initial={moments}
        target={{ startAt: parseStartTime(query.t), endAt: parseStartTime(query.end), commentId: null }}
      >
        {/* The player with its comments' timeline right under it, in the middle of whatever height the frame has;
            a video keeps its 16:9 within that height (the title lines and the timeline take the rest). */}
        <div className="flex min-h-0 flex-1 flex-col justify-center">
          <div className="mx-auto flex w-full flex-col gap-1" style={audio ? undefined : { maxWidth: "calc((100dvh - 6rem) * 16 / 9)" }}>
            {src ? (
              <PostPlayer src={src} audio={audio} poster={post.embed?.thumbnail_url} title={post.title} loadOnPlay={hostedPlayer} />
            ) : (
              <p className="text-sm text-danger">
                This post can&apos;t be played here right now —{" "}
                <Link href={postHref} {...newTab} className={linkClasses}>
                  open it on Cuepoint
                </Link>
                .
              </p>
            )}
            <MomentTimeline />
            <PlayerBar title={post.title} />
          </div>
        </div>
      </PostMoments>
    </main>
  );
}

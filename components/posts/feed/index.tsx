import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { Alert } from "@/components/ui/alert";
import { type FeedCursor, encodeCursor } from "@/lib/posts/cursor";
import { getFeedPage } from "@/lib/posts/queries";
import { createClient } from "@/lib/supabase/server";
import { MembersOnly } from "../members-only";
import { AddPost } from "./add-post";
import { LiveFeed } from "./live-feed";

export interface FeedProps {
  room: { id: string; slug: string; gated: boolean };
  /** May the caller read the room's posts (public room, or a member of a gated one)? */
  canRead: boolean;
  isMember: boolean;
  signedIn: boolean;
  /** The signed-in person (their membership ending stops a gated room's feed updating). */
  userId: string | null;
  cursor: FeedCursor | null;
  /** Is "Add a post" the page's primary action (not while a session's "Join" is)? */
  composerPrimary?: boolean;
}

/** A room's posts, newest first, 20 a page, with the composer for members; live while open. */
export async function Feed({ room, canRead, isMember, signedIn, userId, cursor, composerPrimary = true }: FeedProps) {
  if (!canRead) return <MembersOnly signedIn={signedIn} />;
  const supabase = await createClient();
  const page = await getFeedPage(supabase, room.id, cursor);
  // eslint-disable-next-line react-hooks/purity -- a Server Component renders once: "5 min ago" counts from this moment, on the server and in the browser alike
  const now = Date.now();
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="feed-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="feed-heading" className="text-lg font-semibold">
            {cursor ? "Older posts" : "Posts"}
          </h2>
        </div>
        {isMember && !cursor ? <AddPost room={room} primary={composerPrimary} /> : null}
        {!page.ok ? (
          <Alert tone="error">{page.error}</Alert>
        ) : (
          <LiveFeed
            room={{ id: room.id, slug: room.slug }}
            posts={page.data.posts}
            acceptsNew={!cursor}
            userId={userId}
            gated={room.gated}
            presenceKey={isMember && userId ? userId : undefined}
            emptyText={cursor ? "No older posts." : isMember ? "No posts yet — share a track or a video." : "No posts yet."}
            now={now}
          />
        )}
        <nav aria-label="Feed pages" className="flex flex-wrap gap-4 text-sm">
          {cursor ? (
            <Link href={`/r/${room.slug}`} className={linkClasses}>
              Newest posts
            </Link>
          ) : null}
          {page.ok && page.data.next ? (
            <Link href={`/r/${room.slug}?before=${encodeURIComponent(encodeCursor(page.data.next))}`} className={linkClasses}>
              Older posts
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

"use client";

import { useCallback, useEffect, useReducer, useRef } from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { feedReducer, initialFeed, newestCreatedAt, postFromRow, unknownAuthors, withAuthor, type PostAuthor } from "@/lib/posts/live-feed";
import { postColumns, shapePost, type Post } from "@/lib/posts/queries";
import type { RoomRowChange } from "@/lib/realtime/room-channel";
import { useRoomChannel } from "@/lib/realtime/use-room-channel";
import { PostCard } from "../post-card";

/** A resync asks for posts created this long before the newest shown: a slow writer's transaction commits late. */
const resyncMarginMs = 60_000;
const resyncLimit = 50;

export interface LiveFeedProps {
  room: { id: string; slug: string };
  posts: Post[];
  /** The first page: new posts join it; older pages only update and lose what is shown. */
  acceptsNew: boolean;
  userId: string | null;
  gated: boolean;
  /** The key "here now" shares the member's presence under (their id), so the room's one channel is joined once, with it. */
  presenceKey?: string;
  emptyText: string;
  /** When the server rendered the page: cards say how long ago things happened from it. */
  now: number;
}

/** The feed's list, kept up to date from the room's channel (and by REST after a gap). */
export function LiveFeed({ room, posts, acceptsNew, userId, gated, presenceKey, emptyText, now }: LiveFeedProps) {
  const [state, dispatch] = useReducer(feedReducer, undefined, () => initialFeed(posts, acceptsNew));
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });
  // A server re-render (after posting, editing, joining) brings the page as the server has it now.
  useEffect(() => dispatch({ type: "snapshot", posts }), [posts]);

  const resync = useCallback(async () => {
    const data = await loadSupabaseData();
    const shown = latest.current.posts.map((post) => post.id);
    const newest = newestCreatedAt(latest.current);
    const [found, fresh] = await Promise.all([
      shown.length
        ? data.from("posts").select(postColumns).eq("room_id", room.id).in("id", shown)
        : Promise.resolve({ data: [], error: null }),
      acceptsNew
        ? (newest
            ? data
                .from("posts")
                .select(postColumns)
                .eq("room_id", room.id)
                .gte("created_at", new Date(Date.parse(newest) - resyncMarginMs).toISOString())
            : data.from("posts").select(postColumns).eq("room_id", room.id)
          )
            .order("created_at", { ascending: false })
            .order("id", { ascending: false })
            .limit(resyncLimit)
        : Promise.resolve({ data: [], error: null }),
    ]);
    if (found.error || fresh.error) throw new Error("The feed could not catch up");
    const rows = (list: unknown) => (list as Record<string, unknown>[]).map(shapePost);
    dispatch({ type: "resync", shown, found: rows(found.data), fresh: rows(fresh.data) });
  }, [room.id, acceptsNew]);

  useRoomChannel(
    room.id,
    {
      onChange: (change: RoomRowChange) => {
        if (change.table === "moments") {
          const comment = change.record ?? change.old_record;
          if (!comment || change.operation === "UPDATE") return;
          const added = change.operation === "INSERT";
          dispatch({
            type: "comment",
            postId: comment.post_id,
            commentId: comment.id,
            createdAt: change.record?.created_at ?? null,
            added,
          });
          return;
        }
        if (change.table !== "posts") return;
        if (change.operation === "DELETE") {
          if (change.old_record) dispatch({ type: "remove", id: change.old_record.id });
        } else if (change.record) {
          dispatch({ type: "upsert", post: postFromRow(change.record) });
        }
      },
      // After a gap: catch up by REST; once more a little later if that failed (still offline).
      onResync: () => void resync().catch(() => setTimeout(() => void resync().catch(() => undefined), 3_000)),
    },
    presenceKey,
    { userId, gated },
  );

  // Each author the page has no profile for is asked for once.
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const missing = unknownAuthors(state, asked.current);
    if (missing.length === 0) return;
    for (const id of missing) asked.current.add(id);
    void loadSupabaseData().then(async (data) => {
      const { data: profiles } = await data.from("profiles").select("id, username, display_name, avatar_path, ens_name").in("id", missing);
      if (!profiles?.length) return;
      const authors: Record<string, PostAuthor> = {};
      for (const { id, ...profile } of profiles) authors[id] = profile;
      dispatch({ type: "authors", authors });
    });
  }, [state]);

  if (state.posts.length === 0) return <p className="text-muted">{emptyText}</p>;
  return (
    <ul className="flex flex-col gap-3">
      {state.posts.map((post) => (
        <PostCard key={post.id} post={withAuthor(post, state.authors)} slug={room.slug} now={now} />
      ))}
    </ul>
  );
}

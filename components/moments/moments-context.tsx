"use client";

import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { getMoment, getMomentsPage, getThread, refetchMoments } from "@/lib/moments/queries";
import { findMoment, initialMomentsState, knownAuthor, type MomentsAction, momentsReducer, type MomentsState } from "@/lib/moments/state";
import type { Moment, MomentKey, MomentWithReplies } from "@/lib/moments/types";
import type { RoomRowChange } from "@/lib/realtime/room-channel";
import { useRoomChannel } from "@/lib/realtime/use-room-channel";
import { usePlaybackStore } from "./playback";
import { PlaybackProvider } from "./playback-provider";

export interface MomentsViewer {
  userId: string | null;
  /** A member: may comment and react. */
  canComment: boolean;
  /** Owner or moderator: may delete anyone's comment. */
  canModerate: boolean;
}

interface MomentsContextValue {
  state: MomentsState;
  dispatch: (action: MomentsAction) => void;
  post: { id: string; durationSeconds: number | null };
  room: { id: string; slug: string; name: string; gated?: boolean };
  viewer: MomentsViewer;
  /** The moment a marker or time button picked; highlighted while playback stays at its time. */
  picked: Moment | null;
  /** Seek to a moment, play, highlight it and bring it into view. */
  pick: (moment: Moment) => void;
  following: boolean;
  setFollowing: (following: boolean) => void;
  loadMore: () => Promise<void>;
  loading: boolean;
  loadError: string | null;
  /** What the page's link asked for: start playback at `startAt` (and stop at `endAt`: a clip), bring `commentId` (a comment or reply) into view. */
  target: PostTarget;
  /** The comment or reply the link pointed at, while it is highlighted (a few seconds). */
  flash: string | null;
  /** The linked comment is on the page (loaded, its thread open): the list brings it into view and focuses it. */
  targetReady: boolean;
  /** Ends the highlight. */
  endFlash: () => void;
}

export interface PostTarget {
  startAt: number | null;
  /** Where a clip ends (`&end=`); ignored unless after the start and within the media (lib/moments/clip.ts). */
  endAt?: number | null;
  commentId: string | null;
}

const noTarget: PostTarget = { startAt: null, commentId: null };

const MomentsContext = createContext<MomentsContextValue | null>(null);

export function useMoments(): MomentsContextValue {
  const value = useContext(MomentsContext);
  if (!value) throw new Error("useMoments needs <PostMoments>");
  return value;
}

type Props = {
  post: { id: string; durationSeconds: number | null };
  room: { id: string; slug: string; name: string; gated?: boolean };
  viewer: MomentsViewer;
  initial: { moments: MomentWithReplies[]; next: MomentKey | null };
  target?: PostTarget;
  /** The key "here now" shares this page's presence under (the person's id), so the room's one channel is joined once, with it. */
  presenceKey?: string;
  children: ReactNode;
};

/** The post page's moments and playback, shared by the player, the seek-bar markers and the list; live from the room's channel. */
export function PostMoments({ post, children, ...rest }: Props) {
  return (
    <PlaybackProvider duration={post.durationSeconds}>
      <MomentsState post={post} {...rest}>
        {children}
      </MomentsState>
    </PlaybackProvider>
  );
}

function MomentsState({ post, room, viewer, initial, target = noTarget, presenceKey, children }: Props) {
  const [state, dispatch] = useReducer(momentsReducer, initial, ({ moments, next }) => initialMomentsState(moments, next));
  const [picked, setPicked] = useState<Moment | null>(null);
  const [following, setFollowing] = useState(true);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const playback = usePlaybackStore();
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });
  const loadingRef = useRef(false);
  const [flash, setFlash] = useState<string | null>(target.commentId);
  const [targetReady, setTargetReady] = useState(false);
  const endFlash = useCallback(() => setFlash(null), []);

  // A link's `?t=`: playback starts there (it plays when the person presses play).
  useEffect(() => {
    if (target.startAt !== null) playback?.seek(target.startAt);
  }, [target.startAt, playback]);

  // A link's `?comment=`: the comment (or the reply, with its whole thread) is read if the first page
  // does not hold it, then the list brings it into view.
  useEffect(() => {
    const id = target.commentId;
    if (!id) return;
    if (findMoment(latest.current, id)) return setTargetReady(true);
    let live = true;
    void (async () => {
      const supabase = await loadSupabaseData();
      const found = await getThread(supabase, id).catch(() => null);
      const thread = found?.parent_id ? await getThread(supabase, found.parent_id).catch(() => null) : found;
      if (!live) return;
      if (thread && thread.post_id === post.id) dispatch({ type: "page", moments: [thread], next: latest.current.next });
      setTargetReady(true);
    })();
    return () => {
      live = false;
    };
  }, [target.commentId, post.id]);

  const pick = useCallback(
    (moment: Moment) => {
      if (moment.at_seconds !== null) playback?.seek(moment.at_seconds, { play: true });
      setPicked(moment);
      setFollowing(true);
    },
    [playback],
  );

  const loadMore = useCallback(async () => {
    const after = latest.current.next;
    if (!after || loadingRef.current) return;
    loadingRef.current = true;
    setLoading(true);
    setLoadError(null);
    const page = await getMomentsPage(await loadSupabaseData(), post.id, after).catch(() => null);
    loadingRef.current = false;
    setLoading(false);
    if (!page?.ok) return setLoadError(page?.error ?? "We couldn't load more comments — check your connection.");
    dispatch({ type: "page", moments: page.data.moments, next: page.data.next });
  }, [post.id]);

  /** After a reconnect: everything the page holds, read again and merged (deleted ones go, new ones come). */
  const resync = useCallback(async () => {
    // Through the last loaded page (live arrivals past it stay); everything when all is loaded.
    const through = latest.current.next;
    const fresh = await refetchMoments(await loadSupabaseData(), post.id, through).catch(() => null);
    if (fresh?.ok) dispatch({ type: "merge", moments: fresh.data, through });
  }, [post.id]);

  const applyChange = useCallback(
    async (change: RoomRowChange) => {
      if (change.table === "moments") {
        const row = change.record ?? change.old_record;
        if (!row || row.post_id !== post.id) return;
        if (change.operation === "DELETE") return dispatch({ type: "remove", id: row.id });
        const author = knownAuthor(latest.current, row.author_id);
        const known = findMoment(latest.current, row.id);
        // Its @names are read with it (the channel sends the row alone), unless its words did not change.
        const needsMentions = /@[A-Za-z0-9_]{3}/.test(row.body) && known?.body !== row.body;
        if ((author || known) && !needsMentions) {
          return dispatch({ type: "upsert", moment: { ...row, ...(author ? { author } : {}) } });
        }
        const full = await getMoment(await loadSupabaseData(), row.id).catch(() => null);
        if (full) dispatch({ type: "upsert", moment: full });
      } else if (change.table === "reactions") {
        const row = change.record ?? change.old_record;
        if (!row || row.post_id !== post.id) return;
        if (change.operation === "DELETE") return dispatch({ type: "reactionRemove", momentId: row.moment_id, reaction: { id: row.id } });
        dispatch({ type: "reactionAdd", momentId: row.moment_id, reaction: { id: row.id, emoji: row.emoji, user_id: row.user_id } });
      }
    },
    [post.id],
  );

  useRoomChannel(
    room.id,
    {
      onChange: (change) => void applyChange(change),
      onResync: () => void resync(),
    },
    presenceKey,
  );

  const value = useMemo(
    () => ({
      state,
      dispatch,
      post,
      room,
      viewer,
      picked,
      pick,
      following,
      setFollowing,
      loadMore,
      loading,
      loadError,
      target,
      flash,
      targetReady,
      endFlash,
    }),
    [state, post, room, viewer, picked, pick, following, loadMore, loading, loadError, target, flash, targetReady, endFlash],
  );
  return <MomentsContext.Provider value={value}>{children}</MomentsContext.Provider>;
}

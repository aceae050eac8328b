"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { getMoment, refetchMoments } from "@/lib/moments/queries";
import { initialMomentsState, momentsReducer } from "@/lib/moments/state";
import type { Moment } from "@/lib/moments/types";
import type { RoomRowChange } from "@/lib/realtime/room-channel";
import type { RoomConnectionOptions } from "@/lib/realtime/room-connection";
import { useRoomChannel } from "@/lib/realtime/use-room-channel";

/**
 * The comments of the post a session plays: what the post has (read when it starts playing), then
 * live from the room's channel (`moments` broadcasts) — the same reducer as the post page, so a
 * comment seen twice (the action's answer and its echo) is one.
 */
export function useSessionMoments(
  roomId: string,
  postId: string | null,
  member: Pick<RoomConnectionOptions, "userId" | "gated"> = {},
): { moments: Moment[]; ready: boolean; arrived: ReadonlySet<string>; add: (moment: Moment) => void } {
  const [state, dispatch] = useReducer(momentsReducer, undefined, () => initialMomentsState([], null));
  /** Comments made here or inserted live since the page opened: news, even before the history is read. */
  const [arrived, setArrived] = useState<ReadonlySet<string>>(() => new Set());
  const arrive = useCallback((id: string) => setArrived((ids) => (ids.has(id) ? ids : new Set(ids).add(id))), []);
  /** The post whose comments have been read (or failed to be: then live ones still come). */
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const latest = useRef({ postId, state });
  useLayoutEffect(() => {
    latest.current = { postId, state };
  });

  const load = useCallback(async (target: string) => {
    const fresh = await refetchMoments(await loadSupabaseData(), target, null).catch(() => null);
    if (fresh?.ok) dispatch({ type: "page", moments: fresh.data, next: null });
  }, []);

  useEffect(() => {
    if (!postId) return;
    let live = true;
    void load(postId).then(() => {
      if (live) setLoadedFor(postId);
    });
    return () => {
      live = false;
    };
  }, [postId, load]);

  const applyChange = useCallback(
    async (change: RoomRowChange) => {
      if (change.table !== "moments") return;
      const row = change.record ?? change.old_record;
      if (!row || row.post_id !== latest.current.postId) return;
      if (change.operation === "DELETE") return dispatch({ type: "remove", id: row.id });
      // Replies are not session moments: they belong under their comment on the post's page.
      if (row.parent_id) return;
      if (change.operation === "INSERT") arrive(row.id);
      const author = latest.current.state.items.find((moment) => moment.author_id === row.author_id)?.author;
      if (author || latest.current.state.items.some((moment) => moment.id === row.id)) {
        return dispatch({ type: "upsert", moment: { ...row, ...(author ? { author } : {}) } });
      }
      const full = await getMoment(await loadSupabaseData(), row.id).catch(() => null);
      if (full) dispatch({ type: "upsert", moment: full });
    },
    [arrive],
  );

  useRoomChannel(
    roomId,
    {
      onChange: (change) => void applyChange(change),
      onResync: () => {
        if (latest.current.postId) void load(latest.current.postId);
      },
    },
    undefined,
    { userId: member.userId, gated: member.gated },
  );

  // Comments on the post (replies stay under their comment on the post's page; one deleted above
  // its replies has nothing to say here).
  const moments = useMemo(() => state.items.filter((moment) => moment.post_id === postId && !moment.deleted_at), [state.items, postId]);
  const add = useCallback(
    (moment: Moment) => {
      arrive(moment.id);
      dispatch({ type: "upsert", moment });
    },
    [arrive],
  );
  return { moments, ready: postId !== null && loadedFor === postId, arrived, add };
}

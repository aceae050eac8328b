"use client";

import { useEffect, useRef } from "react";
import { loadSupabaseData } from "@/components/supabase-provider";
import { joinRoomChannel, leaveRoomChannel, type RoomChannelHandlers } from "./room-channel";

/**
 * Keeps the page joined to the room's live channel while it is mounted (`roomId` null: not joined).
 * Handlers may change on every render; the channel is joined once per room.
 */
export function useRoomChannel(roomId: string | null, handlers: RoomChannelHandlers, presenceKey?: string): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!roomId) return;
    let cancelled = false;
    let leave = () => {};
    void loadSupabaseData().then((data) => {
      if (cancelled) return;
      const channel = joinRoomChannel(
        data,
        roomId,
        {
          onChange: (change) => latest.current.onChange?.(change),
          onMembership: (change) => latest.current.onMembership?.(change),
          onStatus: (status, detail) => latest.current.onStatus?.(status, detail),
          onResync: () => latest.current.onResync?.(),
        },
        presenceKey,
      );
      leave = () => leaveRoomChannel(data, channel);
    });
    return () => {
      cancelled = true;
      leave();
    };
  }, [roomId, presenceKey]);
}

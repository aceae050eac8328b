import type { RealtimeChannel } from "@supabase/supabase-js";
import type { BrowserData } from "@/lib/supabase/data-client";
import type { Tables } from "@/types/database";

/**
 * The room's live channel, `room:{room id}`: a private Realtime channel that the database
 * broadcasts every change to posts, moments and reactions to (event = table name, payload from
 * realtime.broadcast_changes), and membership changes (event "memberships"). Presence rides on it.
 */

export type RoomTable = "posts" | "moments" | "reactions";
export type RoomOperation = "INSERT" | "UPDATE" | "DELETE";

/** One row change as realtime.broadcast_changes sends it: `record` null on DELETE, `old_record` null on INSERT. */
export type RoomRowChange<T extends RoomTable = RoomTable> = {
  [K in T]: {
    table: K;
    operation: RoomOperation;
    record: Tables<K> | null;
    old_record: Tables<K> | null;
  };
}[T];

export type MembershipChange = {
  operation: RoomOperation;
  room_id: string;
  user_id: string;
  role: "owner" | "moderator" | "member" | null;
};

/**
 * The channel's state: `refused` when the policies on realtime.messages turned the join down (not a
 * reader of this room); `ended` when the page's own membership ended and it left the channel.
 */
export type RoomChannelStatus = "joining" | "live" | "reconnecting" | "refused" | "closed" | "ended";

export type RoomChannelHandlers = {
  /** A post, moment or reaction changed in the room. */
  onChange?: (change: RoomRowChange) => void;
  /** Someone's membership of the room changed. */
  onMembership?: (change: MembershipChange) => void;
  /** The channel's state; `refused` when the policies on realtime.messages turned the join down. */
  onStatus?: (status: RoomChannelStatus, detail?: string) => void;
  /**
   * The channel is live again after having been live before (network loss, token refresh): fetch
   * through REST whatever changed in between. Not called on the first join.
   */
  onResync?: () => void;
};

export const roomTopic = (roomId: string) => `room:${roomId}`;

const tables: RoomTable[] = ["posts", "moments", "reactions"];

/** Realtime's reason when the policies refuse a join ("Unauthorized: You do not have permissions to read …"). */
export function isRefusal(message: string): boolean {
  return /unauthori[sz]ed|permissions? to read|denied|policy/i.test(message);
}

/** A membership change that ends `userId`'s membership (deleted, or left with no role). */
export function endsMembershipOf(change: MembershipChange, userId: string | null): boolean {
  return userId !== null && change.user_id === userId && (change.operation === "DELETE" || change.role === null);
}

/** Joins the room's channel on `data`'s Realtime client; returns the channel (leave with `leaveRoomChannel`). */
export function joinRoomChannel(
  data: BrowserData,
  roomId: string,
  handlers: RoomChannelHandlers,
  presenceKey?: string,
): RealtimeChannel {
  const channel = data.channel(roomTopic(roomId), {
    config: { private: true, ...(presenceKey ? { presence: { key: presenceKey } } : {}) },
  });
  for (const table of tables) {
    channel.on("broadcast", { event: table }, ({ payload }) => {
      handlers.onChange?.(payload as RoomRowChange);
    });
  }
  channel.on("broadcast", { event: "memberships" }, ({ payload }) => {
    handlers.onMembership?.(payload as MembershipChange);
  });
  let wasLive = false;
  handlers.onStatus?.("joining");
  channel.subscribe((status, error) => {
    if (status === "SUBSCRIBED") {
      handlers.onStatus?.("live");
      if (wasLive) handlers.onResync?.();
      wasLive = true;
    } else if (status === "CHANNEL_ERROR") {
      const message = error?.message ?? "";
      handlers.onStatus?.(isRefusal(message) ? "refused" : "reconnecting", message);
    } else if (status === "TIMED_OUT") {
      handlers.onStatus?.("reconnecting");
    } else if (status === "CLOSED") {
      handlers.onStatus?.("closed");
    }
  });
  return channel;
}

export function leaveRoomChannel(data: BrowserData, channel: RealtimeChannel): void {
  void data.removeChannel(channel);
}

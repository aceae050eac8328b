import type { Tables } from "@/types/database";
import { channelTopic } from "./access-epoch";
import { rowChangeOf } from "./live-updates";

/**
 * The room's live channel, `room:{room id}` (suffixed `:{epoch}` once access has narrowed:
 * ./access-epoch.ts): a private Realtime channel that the database
 * broadcasts every change to posts, moments and reactions to (event = table name, payload from
 * realtime.broadcast_changes), membership changes (event "memberships") and changes of someone's
 * standing, a timeout given or lifted (event "standing", ids only). Presence rides on it.
 */

export const roomTables = ["posts", "moments", "reactions"] as const;
export type RoomTable = (typeof roomTables)[number];
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

export const isRoomRowChange = rowChangeOf<RoomRowChange>(roomTables);

export type MembershipChange = {
  operation: RoomOperation;
  room_id: string;
  user_id: string;
  role: "owner" | "moderator" | "member" | null;
};

/** Someone's standing in the room changed (timed out, or the timeout lifted): ids only, never why. */
export type StandingChange = { room_id: string; user_id: string };

/** A standing change about `userId` (signed out: none is). */
export function namesPerson(change: StandingChange, userId: string | null | undefined): boolean {
  return Boolean(userId) && change.user_id === userId;
}

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
  /** Someone's standing changed (a timeout given or lifted): whoever it names asks for theirs again. */
  onStanding?: (change: StandingChange) => void;
  /** The channel's state; `refused` when the policies on realtime.messages turned the join down. */
  onStatus?: (status: RoomChannelStatus, detail?: string) => void;
  /**
   * The channel is live again after having been live before (network loss, token refresh): fetch
   * through REST whatever changed in between. Not called on the first join.
   */
  onResync?: () => void;
};

export const roomTopic = (roomId: string, epoch = 0) => channelTopic("room", roomId, epoch);

/** A membership change that ends `userId`'s membership (deleted, or left with no role). */
export function endsMembershipOf(change: MembershipChange, userId: string | null): boolean {
  return userId !== null && change.user_id === userId && (change.operation === "DELETE" || change.role === null);
}

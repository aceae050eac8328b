// What the caller may do in a room, derived from the room and their membership as loaded. Postgres
// still decides every read (RLS); this only says what a page shows: the members-only view of a gated
// room, the settings link, the controls a role brings.
import type { RoomMembership, RoomRole } from "./queries.ts";

/** A membership once a gated one whose balance check is stale has been checked again (freshMembership). */
export interface FreshMembership {
  /** Null when not a member, or when the membership just ended. */
  membership: RoomMembership | null;
  /** Why a gated membership just ended (or could not be checked), to tell the person; else null. */
  notice: string | null;
  /** True when the check just now removed the membership. */
  lapsed: boolean;
}

export interface RoomAccess extends FreshMembership {
  /** The caller's role in the room; null for a visitor (signed out or not a member). */
  role: RoomRole | null;
  /** Whether the caller may read the room's posts: a public room, or a member of a gated one. */
  canRead: boolean;
  /** Whether the caller may open the room's settings: its owner and moderators. */
  canManage: boolean;
}

/** The caller's access to a room (`visibility` is "public" or "gated"), from their fresh membership. */
export function roomAccess(room: { visibility: string }, fresh: FreshMembership): RoomAccess {
  const role = fresh.membership?.role ?? null;
  return {
    ...fresh,
    role,
    canRead: room.visibility === "public" || role !== null,
    canManage: role === "owner" || role === "moderator",
  };
}

/** The access of a visitor to a room that did not load: nothing to read or manage. */
export const noAccess: RoomAccess = Object.freeze({
  membership: null,
  notice: null,
  lapsed: false,
  role: null,
  canRead: false,
  canManage: false,
});

/** Who may delete a post: its author, and the room's moderators and owner. */
export function mayDeletePost(viewer: { userId: string | null; role: RoomRole | null }, authorId: string): boolean {
  return viewer.userId === authorId || viewer.role === "owner" || viewer.role === "moderator";
}

import type { SupabaseClient } from "@supabase/supabase-js";
import { freshMembership } from "@/lib/rooms/membership-freshness";
import { getRoomBySlug, type RoomRole } from "@/lib/rooms/queries";
import type { Database } from "@/types/database";

export interface RoomAccess {
  room: { id: string; slug: string; name: string; visibility: string };
  /** The caller's role in the room, or null for a visitor. */
  role: RoomRole | null;
  /** Whether the caller may read the room's posts (a public room, or a member of a gated one). */
  canRead: boolean;
  userId: string | null;
  /** Why a gated membership just ended (or could not be checked), to tell the person; else null. */
  notice: string | null;
  lapsed: boolean;
}

/**
 * A room by slug with what the caller may do with its posts; null when there is no such room. A
 * gated membership whose balance check is over an hour old is checked again first.
 */
export async function getRoomAccess(supabase: SupabaseClient<Database>, slug: string): Promise<RoomAccess | null> {
  const result = await getRoomBySlug(supabase, slug);
  if (!result.ok) return null;
  const { room, viewerId } = result.data;
  const { membership, notice, lapsed } = await freshMembership(supabase, room, result.data.membership);
  const role = membership?.role ?? null;
  return { room, role, canRead: room.visibility === "public" || role !== null, userId: viewerId, notice, lapsed };
}

/** Who may delete a post: its author, and the room's moderators and owner. */
export function mayDeletePost(access: RoomAccess, authorId: string): boolean {
  return access.userId === authorId || access.role === "owner" || access.role === "moderator";
}

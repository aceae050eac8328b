import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";

export interface RoomAccess {
  room: { id: string; slug: string; name: string; visibility: string };
  /** The caller's role in the room, or null for a visitor. */
  role: "owner" | "moderator" | "member" | null;
  /** Whether the caller may read the room's posts (a public room, or a member of a gated one). */
  canRead: boolean;
  userId: string | null;
}

/** A room by slug with what the caller may do in it; null when there is no such room. */
export async function getRoomAccess(supabase: SupabaseClient<Database>, slug: string): Promise<RoomAccess | null> {
  if (!/^[a-z0-9-]{3,48}$/.test(slug)) return null;
  const { data: room } = await supabase.from("rooms").select("id, slug, name, visibility").eq("slug", slug).maybeSingle();
  if (!room) return null;
  const { data: claims } = await supabase.auth.getClaims();
  const userId = typeof claims?.claims.sub === "string" ? claims.claims.sub : null;
  let role: RoomAccess["role"] = null;
  if (userId) {
    const { data } = await supabase.from("memberships").select("role").eq("room_id", room.id).eq("user_id", userId).maybeSingle();
    role = (data?.role as RoomAccess["role"]) ?? null;
  }
  return { room, role, canRead: room.visibility === "public" || role !== null, userId };
}

/** Who may delete a post: its author, and the room's moderators and owner. */
export function mayDeletePost(access: RoomAccess, authorId: string): boolean {
  return access.userId === authorId || access.role === "owner" || access.role === "moderator";
}

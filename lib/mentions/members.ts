import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import type { MemberOption } from "./autocomplete";

type Data = Pick<SupabaseClient<Database>, "from">;

/** How many people the @ list offers at once. */
export const memberOptionsLimit = 8;

/**
 * A room's members whose username starts with `query` or whose display name contains it (the
 * autocomplete's @ list), by username, at most `limit`. One request: profiles joined to the room's
 * memberships (its primary key, room first). Row-level security decides who is listed: a gated
 * room's members only to its members; a public room's to anyone.
 */
export async function searchMembers(
  supabase: Data,
  roomId: string,
  query: string,
  limit = memberOptionsLimit,
): Promise<MemberOption[] | null> {
  // The query is an @name as typed: only a-z 0-9 _ reach the filter.
  const safe = query.toLowerCase().replace(/[^a-z0-9_]/g, "");
  let request = supabase
    .from("profiles")
    .select("id, username, display_name, avatar_path, memberships!inner(room_id)")
    .eq("memberships.room_id", roomId);
  if (safe) request = request.or(`username.ilike.${safe}*,display_name.ilike.*${safe}*`);
  const { data, error } = await request.order("username").limit(limit);
  if (error) return null;
  return data.map(({ id, username, display_name, avatar_path }) => ({ id, username, display_name, avatar_path }));
}

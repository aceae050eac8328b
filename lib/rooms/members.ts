import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";

export interface RoomMember {
  userId: string;
  role: "owner" | "moderator" | "member";
  joinedAt: string;
  username: string;
  displayName: string;
  avatarPath: string | null;
  /** The wallet that qualified for a gated room, else the first linked one. */
  wallet: { address: string; ensName: string | null; ensAvatar: string | null } | null;
}

export type MembersResult = { ok: true; members: RoomMember[] } | { ok: false; error: string };

const roles = new Set(["owner", "moderator", "member"]);

/**
 * A room's members as the caller may see them (row-level security decides), owner first, then
 * moderators, then members by when they joined; with each one's wallet by ENS name.
 */
export async function loadRoomMembers(supabase: SupabaseClient<Database>, roomId: string, limit = 200): Promise<MembersResult> {
  const { data, error } = await supabase
    .from("memberships")
    .select("user_id, role, joined_at, verified_wallet, profiles(username, display_name, avatar_path)")
    .eq("room_id", roomId)
    // 'owner' > 'moderator' > 'member', alphabetically: descending puts them in rank order.
    .order("role", { ascending: false })
    .order("joined_at")
    .limit(limit);
  if (error) return { ok: false, error: "We couldn't load the members — reload the page in a moment." };
  const ids = data.map((row) => row.user_id);
  const { data: wallets } = ids.length ? await supabase.rpc("profiles_wallets", { profile_ids: ids }) : { data: [] };
  const members = data.flatMap((row): RoomMember[] => {
    if (!row.profiles || !roles.has(row.role)) return [];
    const theirs = (wallets ?? []).filter((wallet) => wallet.user_id === row.user_id);
    const qualified = row.verified_wallet
      ? (theirs.find((wallet) => wallet.address === row.verified_wallet) ?? {
          address: row.verified_wallet,
          ens_name: null,
          ens_avatar: null,
        })
      : theirs[0];
    return [
      {
        userId: row.user_id,
        role: row.role as RoomMember["role"],
        joinedAt: row.joined_at,
        username: row.profiles.username,
        displayName: row.profiles.display_name,
        avatarPath: row.profiles.avatar_path,
        wallet: qualified ? { address: qualified.address, ensName: qualified.ens_name, ensAvatar: qualified.ens_avatar } : null,
      },
    ];
  });
  return { ok: true, members };
}

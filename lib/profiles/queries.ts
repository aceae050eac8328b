// Reads for a profile page: the public rooms a person belongs to and what they made in public rooms.
// Each is one database function (supabase/migrations/20261130002100_profile_activity.sql) that lists
// only what everyone may see, whoever asks; these only shape the answers.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Result } from "@/lib/result";
import type { DirectoryRoom, RoomRole } from "@/lib/rooms/queries";
import { liveSessions } from "@/lib/sessions/live";
import type { Database } from "@/types/database";
import { activityItem, activityPageSize, type ActivityCursor, type ActivityItem } from "./activity";

type Client = SupabaseClient<Database>;

/** A public room the person belongs to, as a directory card shows it, with their role there. */
export interface ProfileRoom {
  room: DirectoryRoom;
  role: RoomRole;
}

export const profileMessages = {
  rooms: "We couldn't load their rooms — reload the page in a moment.",
  activity: "We couldn't load their posts and comments — reload the page in a moment.",
} as const;

const roles = new Set<string>(["owner", "moderator", "member"]);

/** The public rooms the person belongs to: where they own or moderate first, then the most active. */
export async function getProfileRooms(supabase: Client, profileId: string): Promise<Result<ProfileRoom[]>> {
  const { data, error } = await supabase.rpc("profile_rooms", { profile_id: profileId }, { get: true });
  if (error) return { ok: false, error: profileMessages.rooms };
  const live = new Set(
    (
      await liveSessions(
        supabase,
        data.map((row) => row.room_id),
      )
    ).map((session) => session.roomId),
  );
  return {
    ok: true,
    data: data.map((row) => ({
      role: roles.has(row.role) ? (row.role as RoomRole) : "member",
      room: {
        id: row.room_id,
        slug: row.slug,
        name: row.name,
        description: row.description,
        cover_path: row.cover_path,
        visibility: "public",
        member_count: row.member_count,
        created_at: row.created_at,
        gate: null,
        last_activity_at: row.last_activity_at,
        live: live.has(row.room_id),
      },
    })),
  };
}

/** One page of the person's posts and comments in public rooms, newest first, from `cursor` on. */
export async function getProfileActivity(
  supabase: Pick<Client, "rpc">,
  profileId: string,
  cursor: ActivityCursor | null = null,
  pageSize = activityPageSize,
): Promise<Result<ActivityItem[]>> {
  const { data, error } = await supabase.rpc(
    "profile_activity",
    { profile_id: profileId, page_size: pageSize, ...(cursor ?? {}) },
    { get: true },
  );
  if (error) return { ok: false, error: profileMessages.activity };
  return { ok: true, data: data.flatMap((row) => activityItem(row) ?? []) };
}

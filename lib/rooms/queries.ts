import type { SupabaseClient } from "@supabase/supabase-js";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { liveSessions } from "@/lib/sessions/live";
import type { Result } from "@/lib/result";
import { isUuid } from "@/lib/validation/ids";
import type { Database } from "@/types/database";

// Reads of rooms for Server Components. Every read goes through the caller's client, so RLS
// decides what is visible; these functions only shape the answers.

type Client = SupabaseClient<Database>;
type Tables = Database["public"]["Tables"];

export type Room = Tables["rooms"]["Row"];
export type RoomGate = Tables["room_gates"]["Row"];
export type RoomRole = "owner" | "moderator" | "member";

export interface RoomOwner {
  id: string;
  username: string;
  display_name: string;
  avatar_path: string | null;
}

export interface RoomMembership {
  role: RoomRole;
  joined_at: string;
  verified_wallet: string | null;
  verified_at: string | null;
}

export interface RoomDetails {
  room: Room;
  owner: RoomOwner | null;
  /** The gate of a gated room; null for a public room. */
  gate: RoomGate | null;
  /** The caller's own membership; null when signed out or not a member. */
  membership: RoomMembership | null;
  /** The signed-in caller's user id, or null. */
  viewerId: string | null;
}

export type QueryError = { kind: "not_found" | "unavailable"; message: string };
export type QueryResult<T> = Result<T, QueryError>;

const slugPattern = /^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/;
const unavailable: QueryError = { kind: "unavailable", message: "We couldn't load this room — reload the page in a moment." };

/**
 * A room by its address, with its gate, its owner's profile and the caller's membership.
 * `viewerId` saves a round trip when the caller already knows who is signed in (undefined: ask Auth).
 */
export async function getRoomBySlug(supabase: Client, slug: string, viewerId?: string | null): Promise<QueryResult<RoomDetails>> {
  if (!slugPattern.test(slug)) return { ok: false, error: { kind: "not_found", message: "There is no room at this address." } };
  const userId = viewerId === undefined ? await currentUserId(supabase) : viewerId;

  const { data: room, error } = await supabase.from("rooms").select("*").eq("slug", slug).maybeSingle();
  if (error) return { ok: false, error: unavailable };
  if (!room) return { ok: false, error: { kind: "not_found", message: "There is no room at this address." } };

  const [gate, owner, membership] = await Promise.all([
    room.visibility === "gated" ? supabase.from("room_gates").select("*").eq("room_id", room.id).maybeSingle() : null,
    supabase.from("profiles").select("id, username, display_name, avatar_path").eq("id", room.owner_id).maybeSingle(),
    userId
      ? supabase
          .from("memberships")
          .select("role, joined_at, verified_wallet, verified_at")
          .eq("room_id", room.id)
          .eq("user_id", userId)
          .maybeSingle()
      : null,
  ]);
  if (gate?.error || owner.error || membership?.error) return { ok: false, error: unavailable };

  return {
    ok: true,
    data: {
      room,
      owner: owner.data ?? null,
      gate: gate?.data ?? null,
      membership: membership?.data ? { ...membership.data, role: membership.data.role as RoomRole } : null,
      viewerId: userId,
    },
  };
}

async function currentUserId(supabase: Client): Promise<string | null> {
  return await verifiedUserId(supabase);
}

// ---------------------------------------------------------------------------------------------
// The directory
// ---------------------------------------------------------------------------------------------

const directoryPageSize = 24;

export type DirectoryRoom = Pick<
  Room,
  "id" | "slug" | "name" | "description" | "cover_path" | "visibility" | "member_count" | "created_at"
> & {
  gate: Pick<RoomGate, "chain_id" | "contract_address" | "standard" | "token_id" | "min_balance"> | null;
  /** When someone last posted or commented (room_activity): null or absent where the caller may not read the room. */
  last_activity_at?: string | null;
  /** A listening session is on (as far as the caller may read it). */
  live?: boolean;
};

export interface DirectoryPage {
  rooms: DirectoryRoom[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface DirectoryQuery {
  /** Part of a room's name, as typed; matched literally, case-insensitively. */
  search?: string;
  /** From a previous page's `nextCursor`. */
  cursor?: string | null;
  pageSize?: number;
}

/** What a directory card shows of a room, as one select (its gate, and its activity where the caller may read the room). */
const directoryColumns =
  "id, slug, name, description, cover_path, visibility, member_count, created_at, gate:room_gates(chain_id, contract_address, standard, token_id, min_balance), activity:room_activity(last_activity_at)";

type DirectoryRow = Omit<DirectoryRoom, "gate" | "last_activity_at" | "live"> & {
  gate: DirectoryRoom["gate"] | DirectoryRoom["gate"][];
  activity: { last_activity_at: string | null } | { last_activity_at: string | null }[] | null;
};

/** Rows of `directoryColumns` as cards: the gate and activity unwrapped, and which rooms have a session on now. */
async function directoryRooms(supabase: Client, page: DirectoryRow[]): Promise<DirectoryRoom[]> {
  const live = new Set(
    (
      await liveSessions(
        supabase,
        page.map((room) => room.id),
      )
    ).map((session) => session.roomId),
  );
  return page.map(({ gate, activity, ...room }) => ({
    ...room,
    gate: (Array.isArray(gate) ? gate[0] : gate) ?? null,
    // RLS answers null for a gated room the caller may not read: its activity stays unknown.
    last_activity_at: (Array.isArray(activity) ? activity[0] : activity)?.last_activity_at ?? null,
    live: live.has(room.id),
  }));
}

/**
 * Rooms newest first, optionally those whose name contains `search`, one page at a time. Through the
 * `search_rooms` function, which plans each call for its term (see its migration).
 */
export async function listRooms(
  supabase: Client,
  { search = "", cursor = null, pageSize = directoryPageSize }: DirectoryQuery = {},
): Promise<QueryResult<DirectoryPage>> {
  const after = cursor ? decodeCursor(cursor) : null;
  const query = supabase
    .rpc(
      "search_rooms",
      { search: likePattern(search.trim()), before_created_at: after?.createdAt, before_id: after?.id, page_size: pageSize + 1 },
      { get: true },
    )
    .select(directoryColumns);

  const { data, error } = await query;
  if (error) return { ok: false, error: { kind: "unavailable", message: "We couldn't load the rooms — reload the page in a moment." } };

  const rows = await directoryRooms(supabase, data.slice(0, pageSize));
  const last = rows.at(-1);
  return { ok: true, data: { rooms: rows, nextCursor: data.length > pageSize && last ? encodeCursor(last.created_at, last.id) : null } };
}

/** Typed text as a literal `ilike` pattern: `%`, `_` and `\` are escaped. */
export function likePattern(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** A page boundary as URL-safe text: the last row's (created_at, id). */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/** The boundary a cursor names, or null for anything that is not one (a mangled URL starts over). */
export function decodeCursor(cursor: string): { createdAt: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(cursor)) return null;
  const [createdAt, id, extra] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) return null;
  if (!/^[0-9T:.+\- Z]+$/.test(createdAt)) return null;
  return { createdAt, id };
}

/** Open rooms to start with, for someone new: the busiest ones they have not joined yet. */
export async function suggestedRooms(supabase: Client, viewerId: string, count = 4): Promise<DirectoryRoom[]> {
  const { data: joined } = await supabase.from("memberships").select("room_id").eq("user_id", viewerId);
  let query = supabase.from("rooms").select(directoryColumns).eq("visibility", "public");
  if (joined?.length) query = query.not("id", "in", `(${joined.map((row) => row.room_id).join(",")})`);
  const { data, error } = await query.order("member_count", { ascending: false }).order("created_at", { ascending: false }).limit(count);
  if (error) return [];
  return directoryRooms(supabase, data);
}

// Reads for the home page: the caller's rooms with what is new since their last visit, what is live
// in the rooms they may read, and the week's most-talked-about moments in public rooms. Each is one
// database function (supabase/migrations/20261128000400_home_your_rooms_and_visits.sql) that decides
// what the caller may see; these only shape the answers.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Result } from "@/lib/result";
import type { Database } from "@/types/database";

type Client = SupabaseClient<Database>;

export interface HerePerson {
  username: string;
  displayName: string;
  avatarPath: string | null;
}

export interface MyRoom {
  id: string;
  slug: string;
  name: string;
  coverPath: string | null;
  gated: boolean;
  memberCount: number;
  role: "owner" | "moderator" | "member";
  /** False for a gated membership whose balance check has lapsed: the room shows, none of its activity. */
  current: boolean;
  /** Others' posts and comments since the caller last opened the room (or joined it), counted up to 100. */
  newPosts: number;
  newComments: number;
  lastActivityAt: string | null;
  live: { sessionId: string; listeners: number } | null;
  hereCount: number;
  /** Up to four of the people here now, most recently seen first. */
  here: HerePerson[];
}

export interface LiveSession {
  sessionId: string;
  room: { id: string; slug: string; name: string; coverPath: string | null; gated: boolean };
  /** The caller may join the session (a current member of its room). */
  isMember: boolean;
  hostName: string | null;
  post: { id: string; title: string } | null;
  playing: boolean;
  startedAt: string;
  listeners: number;
}

export interface TopMoment {
  post: { id: string; title: string };
  room: { slug: string; name: string };
  /** Where in the media the comments cluster, in whole seconds. */
  atSeconds: number;
  comments: number;
  sample: { body: string; author: string | null };
}

/** Counts are counted up to this many; a page says "99+". */
const countCap = 100;

const unavailable = "We couldn't load this part of the page — reload in a moment.";

const roles = new Set(["owner", "moderator", "member"]);

function herePeople(value: unknown): HerePerson[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry !== "object" || entry === null) return [];
    const { username, display_name, avatar_path } = entry as Record<string, unknown>;
    if (typeof username !== "string" || typeof display_name !== "string") return [];
    return [{ username, displayName: display_name, avatarPath: typeof avatar_path === "string" ? avatar_path : null }];
  });
}

/** The signed-in caller's rooms: live ones first, then the most recently active. */
export async function getMyRooms(supabase: Client, maxRooms = 50): Promise<Result<MyRoom[]>> {
  const { data, error } = await supabase.rpc("my_rooms", { max_rooms: maxRooms });
  if (error) return { ok: false, error: unavailable };
  return {
    ok: true,
    data: data.map((row) => ({
      id: row.room_id,
      slug: row.slug,
      name: row.name,
      coverPath: row.cover_path,
      gated: row.visibility === "gated",
      memberCount: row.member_count,
      role: roles.has(row.role) ? (row.role as MyRoom["role"]) : "member",
      current: row.current,
      newPosts: row.new_posts ?? 0,
      newComments: row.new_comments ?? 0,
      lastActivityAt: row.last_activity_at,
      live: row.live_session_id ? { sessionId: row.live_session_id, listeners: row.live_listeners ?? 0 } : null,
      hereCount: row.here_count,
      here: herePeople(row.here),
    })),
  };
}

/** Sessions on now in the rooms the caller may read: public rooms for everyone, and a member's own. */
export async function getLiveNow(supabase: Client, maxSessions = 6): Promise<Result<LiveSession[]>> {
  const { data, error } = await supabase.rpc("live_now", { max_sessions: maxSessions }, { get: true });
  if (error) return { ok: false, error: unavailable };
  return {
    ok: true,
    data: data.map((row) => ({
      sessionId: row.session_id,
      room: { id: row.room_id, slug: row.slug, name: row.name, coverPath: row.cover_path, gated: row.visibility === "gated" },
      isMember: row.is_member,
      hostName: row.host_name,
      post: row.post_id && row.post_title ? { id: row.post_id, title: row.post_title } : null,
      playing: row.playing,
      startedAt: row.started_at,
      listeners: row.listeners,
    })),
  };
}

/** Public rooms' most-commented moments this week. */
export async function getTopMoments(supabase: Client, maxMoments = 6): Promise<Result<TopMoment[]>> {
  const { data, error } = await supabase.rpc("top_moments", { max_moments: maxMoments }, { get: true });
  if (error) return { ok: false, error: unavailable };
  return {
    ok: true,
    data: data.map((row) => ({
      post: { id: row.post_id, title: row.post_title },
      room: { slug: row.room_slug, name: row.room_name },
      atSeconds: row.at_seconds,
      comments: row.comments,
      sample: { body: row.sample_body, author: row.sample_author },
    })),
  };
}

/** "3", or "99+" for a count that reached the cap. */
export function cappedCount(count: number): string {
  return count >= countCap ? `${countCap - 1}+` : count.toLocaleString("en");
}

/** "2 new posts · 5 new comments", or null when nothing is new. */
export function newSinceText(room: Pick<MyRoom, "newPosts" | "newComments">): string | null {
  const parts: string[] = [];
  if (room.newPosts > 0) parts.push(`${cappedCount(room.newPosts)} new ${room.newPosts === 1 ? "post" : "posts"}`);
  if (room.newComments > 0) parts.push(`${cappedCount(room.newComments)} new ${room.newComments === 1 ? "comment" : "comments"}`);
  return parts.length ? parts.join(" · ") : null;
}

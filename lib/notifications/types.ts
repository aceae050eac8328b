import type { Database } from "@/types/database";

/** The kinds of notification the database writes (public.notifications.kind). */
export const notificationKinds = [
  "reply",
  "mention",
  "reaction",
  "session_started",
  "role_changed",
  "membership_ended",
  "moderation",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export type NotificationRow = Database["public"]["Functions"]["my_notifications"]["Returns"][number];

/**
 * One notification as `my_notifications` answers it, with what may be missing said so in its type:
 * the actor (an account deleted since), the room, the post and comment (gone, or no longer readable
 * by the person: then their title and words are null).
 */
export interface NotificationItem {
  id: string;
  kind: string;
  createdAt: string;
  readAt: string | null;
  held: boolean;
  data: Record<string, unknown>;
  actor: { id: string; username: string | null; display_name: string | null; ens_name: string | null; avatar_path: string | null } | null;
  room: { id: string; slug: string | null; name: string | null } | null;
  postId: string | null;
  postTitle: string | null;
  momentId: string | null;
  parentId: string | null;
  atSeconds: number | null;
  excerpt: string | null;
  /** For a reaction: how many different people reacted since it was first written. */
  people: number | null;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const id = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** A row of `my_notifications` (whose generated type claims every column is present) as it may really be. */
export function toNotificationItem(row: NotificationRow): NotificationItem {
  const r = row as unknown as Record<string, unknown>;
  const actorId = id(r.actor_id);
  const roomId = id(r.room_id);
  const data = r.data && typeof r.data === "object" && !Array.isArray(r.data) ? (r.data as Record<string, unknown>) : {};
  return {
    id: String(r.id),
    kind: String(r.kind),
    createdAt: String(r.created_at),
    readAt: text(r.read_at),
    held: r.held === true,
    data,
    actor: actorId
      ? {
          id: actorId,
          username: text(r.actor_username),
          display_name: text(r.actor_display_name),
          ens_name: text(r.actor_ens_name),
          avatar_path: text(r.actor_avatar_path),
        }
      : null,
    room: roomId ? { id: roomId, slug: text(r.room_slug), name: text(r.room_name) } : null,
    postId: id(r.post_id),
    postTitle: text(r.post_title),
    momentId: id(r.moment_id),
    parentId: id(r.parent_id),
    atSeconds: num(r.at_seconds),
    excerpt: text(r.excerpt),
    people: num(r.people),
  };
}

/**
 * Presence on a room's channel: each member who has the room open shares who they are and what
 * they are playing. One person may have several tabs open (several metas, under their user id or
 * not): they show once, playing what their most recent playing tab plays (or nothing).
 */

export interface NowPlaying {
  post_id: string;
  title: string;
}

/** What a member tracks on the room's channel. */
export interface PresenceMeta {
  user_id: string;
  username: string;
  display_name: string;
  avatar_path: string | null;
  playing: NowPlaying | null;
  /** When this tab last changed what it shares (ms since epoch): the newest tab wins. */
  at: number;
}

export interface HereNow {
  userId: string;
  username: string;
  displayName: string;
  avatarPath: string | null;
  playing: NowPlaying | null;
  isSelf: boolean;
}

function isMeta(value: unknown): value is PresenceMeta {
  if (!value || typeof value !== "object") return false;
  const meta = value as Record<string, unknown>;
  return typeof meta.user_id === "string" && typeof meta.username === "string" && typeof meta.display_name === "string";
}

/** A tab that plays beats one that does not; then the newest. */
const rank = (meta: PresenceMeta) => (playingOf(meta.playing) ? 1e15 : 0) + (Number(meta.at) || 0);

function playingOf(value: unknown): NowPlaying | null {
  if (!value || typeof value !== "object") return null;
  const playing = value as Record<string, unknown>;
  return typeof playing.post_id === "string" && typeof playing.title === "string" ? { post_id: playing.post_id, title: playing.title } : null;
}

/**
 * Everyone here now, once each: the page's own person first, then the others by name. Malformed
 * metas (anything a client could put there) are skipped, not trusted.
 */
export function shapePresence(state: Record<string, unknown[]>, selfId: string | null): HereNow[] {
  const newest = new Map<string, PresenceMeta>();
  for (const metas of Object.values(state)) {
    for (const meta of metas) {
      if (!isMeta(meta)) continue;
      const seen = newest.get(meta.user_id);
      if (!seen || rank(meta) > rank(seen)) newest.set(meta.user_id, meta);
    }
  }
  const people = [...newest.values()].map(
    (meta): HereNow => ({
      userId: meta.user_id,
      username: meta.username,
      displayName: meta.display_name,
      avatarPath: typeof meta.avatar_path === "string" ? meta.avatar_path : null,
      playing: playingOf(meta.playing),
      isSelf: meta.user_id === selfId,
    }),
  );
  return people.sort((a, b) => Number(b.isSelf) - Number(a.isSelf) || a.displayName.localeCompare(b.displayName) || a.userId.localeCompare(b.userId));
}

/** A member's presence identity from their profile. */
export function presenceSelf(profile: { id: string; username: string; display_name: string; avatar_path: string | null }): Omit<PresenceMeta, "playing" | "at"> {
  return { user_id: profile.id, username: profile.username, display_name: profile.display_name, avatar_path: profile.avatar_path };
}

import type { HereRow } from "./here-rows";

/**
 * Presence on a room's channel. Each open page of a member tracks only its person's id, as a prompt
 * for the others to read who is here from the database (./here-rows.ts): what a payload says about
 * anyone is never shown. One person may have several pages open: they show once, playing what
 * their most recent playing page plays (or nothing).
 */

export interface NowPlaying {
  post_id: string;
  title: string;
}

/** What a member's page tracks on the room's channel. */
export interface PresenceMeta {
  user_id: string;
  /** When this page last changed what it marks (ms since epoch): a change prompts the others to read again. */
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

/** Everyone here now, once each, from the database's rows: the page's own person first, then the others by name. */
export function hereNowOf(rows: HereRow[], selfId: string | null): HereNow[] {
  const people = rows.map((row): HereNow => ({
    userId: row.user_id,
    username: row.username,
    displayName: row.display_name,
    avatarPath: row.avatar_path,
    playing: row.playing_post_id ? { post_id: row.playing_post_id, title: row.playing_title ?? "" } : null,
    isSelf: row.user_id === selfId,
  }));
  return people.sort(
    (a, b) => Number(b.isSelf) - Number(a.isSelf) || a.displayName.localeCompare(b.displayName) || a.userId.localeCompare(b.userId),
  );
}

/** A member's presence identity: their id (everything shown about them comes from the database). */
export function presenceSelf(profile: { id: string }): { user_id: string } {
  return { user_id: profile.id };
}

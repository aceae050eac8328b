import type { Tables } from "@/types/database";
import type { Result } from "@/lib/result";
import { channelTopic } from "@/lib/realtime/access-epoch";

/**
 * Listening together: a room's session (see supabase/migrations/20261125000100_listening_sessions.sql).
 *
 * The session row holds the playback everyone follows: `post_id` at `position_seconds` at server
 * time `state_at`, moving at `rate` when `playing`; `version` grows with every change. Its channel,
 * `session:{room id}`, is private to the room's members: the database broadcasts each new version
 * (event `session`, payload the row) and each queue change (event `queue`, payload as
 * realtime.broadcast_changes sends it); members share presence there; nobody else broadcasts.
 */

export type SessionRow = Tables<"listening_sessions">;
export type QueueEntry = Tables<"session_queue">;

/** The session channel's topic (suffixed `:{epoch}` once the room's access has narrowed: lib/realtime/access-epoch.ts). */
export const sessionTopic = (roomId: string, epoch = 0) => channelTopic("session", roomId, epoch);

/** A queue change as realtime.broadcast_changes sends it (event `queue`). */
export interface QueueChange {
  table: "session_queue";
  operation: "INSERT" | "UPDATE" | "DELETE";
  record: QueueEntry | null;
  old_record: QueueEntry | null;
}

export type RoomRole = "owner" | "moderator" | "member";

/** What each member with the session open shares as presence on its channel. */
export interface ListenerMeta {
  user_id: string;
  username: string;
  display_name: string;
  avatar_path: string | null;
  /** The ENS name and avatar of the person's linked wallet, where they have one. */
  ens_name: string | null;
  ens_avatar: string | null;
  role: RoomRole;
  /** When this page joined the session (ms, server clock): the longest present takes over first. */
  since: number;
  /** Following the host (true) or listening on their own. */
  following: boolean;
}

/** A listener as the page shows them: once per person, the host marked. */
export interface Listener extends ListenerMeta {
  isHost: boolean;
  isSelf: boolean;
}

/** The playback state everyone follows, in the page's terms. */
export interface PlaybackState {
  postId: string | null;
  positionSeconds: number;
  playing: boolean;
  rate: number;
  /** Server clock, ms since the epoch, at which `positionSeconds` was true. */
  stateAtMs: number;
  version: number;
}

export function playbackStateOf(session: SessionRow): PlaybackState {
  return {
    postId: session.post_id,
    positionSeconds: session.position_seconds,
    playing: session.playing,
    rate: session.rate,
    stateAtMs: Date.parse(session.state_at),
    version: session.version,
  };
}

/** A post as the session page lists it (queue, now playing, picker). */
export interface SessionPost {
  id: string;
  title: string;
  author_id: string;
  media_kind: "embed" | "upload";
  duration_seconds: number | null;
  /** What the player plays: the link, or the uploaded file's public/signed URL. */
  src: string;
  /** An uploaded file's path in the `media` bucket (its signed `src` expires; sign it again from this). */
  storage_path?: string | null;
  audio: boolean;
  poster: string | null;
}

export type SessionActionResult<T = SessionRow> = Result<T>;

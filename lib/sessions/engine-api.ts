import type { PresenceMeta } from "@/lib/realtime/presence";
import type { SessionBackend } from "./backend";
import type { SessionChannelHandlers, SessionChannelStatus } from "./connection";
import type { ReadyMark } from "./ready-check";
import type { Listener, ListenerMeta, PlaybackState, QueueEntry, SessionRow } from "./types";

// The session engine's API (./engine.ts): what the page gives it (the setup), what it gives the
// page (the value components read through useListeningSession), and the outside world it needs.

/** Who the page's person is, as they appear among the listeners (without `since` and `following`, which the page sets). */
export type ListenerSelf = Omit<ListenerMeta, "since" | "following">;

export interface ListeningSessionSetup {
  /** `gated`: the room's membership is kept fresh while the page is open (lib/rooms/membership-freshness.ts). */
  room: {
    id: string;
    slug: string;
    name: string;
    gated: boolean;
    /** DJ turns: the longest turn (s), and the share of listeners whose votes skip a track (./turns.ts). */
    turnMaxSeconds?: number;
    skipShare?: number;
  };
  /** The page's person (a member of the room). */
  self: ListenerSelf;
  /** Whether this person may start a session (owner/moderator, or any member when the room allows). */
  canStart: boolean;
  initial: { session: SessionRow | null; queue: QueueEntry[] };
  /** Durations by post id, so the timeline stops at the end (null: unknown). */
  durations?: Record<string, number | null>;
}

export interface ListeningSessionActions {
  /** Starts a session in the room with this person hosting (optionally with a post loaded, paused). */
  start(postId?: string | null): Promise<boolean>;
  /** Ends the session (host, moderators, owner). */
  end(): Promise<boolean>;
  /** Host: play from where it is. */
  play(): Promise<boolean>;
  /** Host: pause where it is. */
  pause(): Promise<boolean>;
  /** Host: move to `seconds` of the current post (keeps playing or paused). */
  seek(seconds: number): Promise<boolean>;
  /** Host: the next queued post (nothing queued: pause). */
  next(): Promise<boolean>;
  /** Host: play this post of the room from its start (it leaves the queue if it was there). */
  playPost(postId: string): Promise<boolean>;
  /** Host: playback speed (0.5–2). */
  setRate(rate: number): Promise<boolean>;
  /** Host: load this post of the room paused at its start, for the ready check to run (it leaves the queue if it was there). */
  load(postId: string): Promise<boolean>;
  /** Follow the host again: the player jumps to the live position. */
  follow(): void;
  /** Stop following: the player is the person's own (the session goes on). */
  listenAlone(): void;
  /** Host, moderators, owner: give the host's place to another member. */
  handOver(userId: string): Promise<boolean>;
  /** Forget the last error. */
  clearError(): void;
}

/**
 * What `useListeningSession()` returns: the session as this page knows it, and what the person can
 * do. Everything updates live from the session's channel; after any gap it is fetched again.
 */
export interface ListeningSessionValue {
  room: ListeningSessionSetup["room"];
  self: ListenerSelf;
  /** The live session (null: none, or it ended — see `ended`). */
  session: SessionRow | null;
  /** The session's playback as the page follows it (the host's own changes apply at once). */
  playback: PlaybackState | null;
  /** Queued entries in play order, then suggestions (oldest first). */
  queue: QueueEntry[];
  /** Everyone with the session open, once each: the host first, then by how long they have been here. */
  listeners: Listener[];
  hostId: string | null;
  isHost: boolean;
  /** Following the host (the default), or listening on their own. */
  following: boolean;
  /** The post this page plays: the session's when following; on one's own, the one that played when they stopped following. */
  listeningTo: string | null;
  /** The session channel's state; `refused` for non-members. */
  status: SessionChannelStatus;
  /** Words for the channel's state when it is not live (refused, reconnecting). */
  statusDetail: string | null;
  /** The last action's error, in words (cleared by the next action). */
  error: string | null;
  /** An action is on its way. */
  busy: boolean;
  /** The session this page had just ended (by anyone). */
  ended: boolean;
  canStart: boolean;
  /** The host, moderators and the owner may end the session and hand it over. */
  canEnd: boolean;
  /** The server's clock now (ms since the epoch), as estimated. */
  serverNow(): number;
  /** Where the session's playback is now (s), on the nominal timeline. */
  position(): number;
  /** The current post's duration (s), when known. */
  duration: number | null;
  actions: ListeningSessionActions;
  /** Hears each `ready` mark on the session's channel (./ready-check.ts); returns the unlisten. */
  watchReady(listener: (mark: ReadyMark) => void): () => void;
}

/** The engine's snapshot: all of the value but what the page's props say (the room, the person, what they may do). */
export type SessionSnapshot = Omit<ListeningSessionValue, "room" | "self" | "canStart" | "canEnd">;

/** The session's live channel as the engine uses it (./connection.ts: SessionConnection). */
export interface LiveSession {
  setPresence(meta: PresenceMeta | null): void;
  close(): void;
}

/** The engine's outside world: the page's in the browser (./engine-browser.ts), fakes in unit tests. */
export interface SessionEngineDeps {
  /** The page's clients: the backend, and the session channel's connection. */
  load(): Promise<{ backend: SessionBackend; connect(handlers: SessionChannelHandlers): LiveSession }>;
  /** The backend for an action taken before `load` has answered. */
  loadBackend(): Promise<SessionBackend>;
  /** The access token the page's requests would carry now. */
  accessToken(): Promise<string | null>;
  /** Tells the server the host's place is free, in a request that outlives the page. */
  releaseOnExit(accessToken: string, sessionId: string): void;
  /** Listens for the page closing; returns the unlisten. */
  onPageHide(listener: () => void): () => void;
  /** The page's monotonic clock, ms (./clock.ts: localNow). */
  now(): number;
  /** This page's id among the person's open pages (its presence row); a random one by default. */
  tabId?: string;
}

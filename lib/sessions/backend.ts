import type { BrowserData } from "@/lib/supabase/data-client";
import { type HereRow, HereRows, leaveHere, type Mark, markHere } from "@/lib/realtime/here-rows";
import { fetchSession, sessionActions } from "./rpc";
import type { QueueEntry, SessionActionResult, SessionRow } from "./types";

type Result<T> = Promise<SessionActionResult<T>>;

/** Who is here, kept read (lib/realtime/here-rows.ts: HereRows). */
export type HereWatch = Pick<HereRows, "present" | "prompt" | "stop">;

/**
 * What the session engine (./engine.ts) asks of the server, for one room: the session's functions
 * (./rpc.ts), the reads it makes, the page's presence row and the server's clock. The page's is
 * `sessionBackend` (the data client); unit tests give the engine one in memory.
 */
export interface SessionBackend {
  start(postId: string | null): Result<SessionRow>;
  end(sessionId: string): Result<SessionRow>;
  setPlayback(input: {
    sessionId: string;
    postId: string | null;
    positionSeconds: number;
    playing: boolean;
    rate: number;
    atMs: number;
  }): Result<SessionRow>;
  next(input: { sessionId: string; afterPostId: string | null; atMs: number }): Result<SessionRow>;
  heartbeat(sessionId: string): Result<string>;
  claimHost(sessionId: string, expectedHostId: string | null): Result<SessionRow>;
  handOver(sessionId: string, newHostId: string): Result<SessionRow>;
  /** The room's live session and its queue. */
  fetchSession(): Result<{ session: SessionRow | null; queue: QueueEntry[] }>;
  /** A session's row, ended or not (null: not found). */
  readSession(sessionId: string): Promise<SessionRow | null>;
  /** A post's stored duration in seconds (null: unknown); null when the post is not found. */
  readDuration(postId: string): Promise<{ id: string; seconds: number | null } | null>;
  /** The server's clock (ms since the epoch); throws when it cannot be read. */
  serverClockMs(): Promise<number>;
  /** Keeps the rows of the people presence names read (`onRows`: those rows). */
  watchHere(onRows: (rows: HereRow[]) => void): HereWatch;
  /** This page (`tabId`) is here: its row is written. Since when (ms), or null when refused. */
  markHere(tabId: string, mark: Mark): Promise<number | null>;
  leaveHere(tabId: string): Promise<void>;
}

/** The page's backend: the data client's RPCs and reads, for the room `roomId`. */
export function sessionBackend(data: BrowserData, roomId: string): SessionBackend {
  return {
    start: (postId) => sessionActions.start(data, roomId, postId),
    end: (sessionId) => sessionActions.end(data, sessionId),
    setPlayback: (input) => sessionActions.setPlayback(data, input),
    next: (input) => sessionActions.next(data, input),
    heartbeat: (sessionId) => sessionActions.heartbeat(data, sessionId),
    claimHost: (sessionId, expectedHostId) => sessionActions.claimHost(data, sessionId, expectedHostId),
    handOver: (sessionId, newHostId) => sessionActions.handOver(data, sessionId, newHostId),
    fetchSession: () => fetchSession(data, roomId),
    readSession: async (sessionId) => {
      const { data: row } = await data.from("listening_sessions").select("*").eq("id", sessionId).maybeSingle();
      return row;
    },
    readDuration: async (postId) => {
      const { data: row } = await data.from("posts").select("id, duration_seconds").eq("id", postId).maybeSingle();
      return row && { id: row.id, seconds: row.duration_seconds === null ? null : Number(row.duration_seconds) };
    },
    serverClockMs: async () => {
      const { data: ms, error } = await data.rpc("server_clock_ms");
      if (error || typeof ms !== "number") throw new Error(error?.message ?? "no clock");
      return ms;
    },
    watchHere: (onRows) => HereRows.forRoom(data, roomId, onRows),
    markHere: (tabId, mark) => markHere(data, roomId, tabId, mark),
    leaveHere: (tabId) => leaveHere(data, roomId, tabId),
  };
}

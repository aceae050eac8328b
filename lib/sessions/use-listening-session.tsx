"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { loadAccessToken, loadLiveClient, loadSupabaseData } from "@/lib/supabase/browser-clients";
import { publicConfig } from "@/lib/public-config";
import type { BrowserData } from "@/lib/supabase/data-client";
import { fetchSession, releaseOnExit, sessionActions, sessionMessages } from "./rpc";
import { localNow, ServerClock } from "./clock";
import { SessionConnection, type SessionChannelStatus } from "./connection";
import { hostSilent } from "./host-silence";
import { HostSuccession } from "./succession";
import { applyQueueChange, listenersOf, orderQueue, supersedes } from "./state";
import { positionAt } from "./timeline";
import { type Listener, type ListenerMeta, type PlaybackState, type QueueEntry, type SessionRow, playbackStateOf } from "./types";
import { readRoomEpoch } from "@/lib/realtime/use-room-channel";
import { type HereRow, HereRows, keepMarked, leaveHere, markHere } from "@/lib/realtime/here-rows";

/** Who the page's person is, as they appear among the listeners (without `since` and `following`, which the page sets). */
export type ListenerSelf = Omit<ListenerMeta, "since" | "following">;

export interface ListeningSessionSetup {
  /** `gated`: the room's membership is kept fresh while the page is open (lib/rooms/membership-freshness.ts). */
  room: { id: string; slug: string; name: string; gated: boolean };
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
}

const heartbeatMs = 2_000;

const ListeningSessionContext = createContext<ListeningSessionValue | null>(null);

/** The session page's session (inside <ListeningSessionProvider>). */
export function useListeningSession(): ListeningSessionValue {
  const value = useContext(ListeningSessionContext);
  if (!value) throw new Error("useListeningSession needs <ListeningSessionProvider>");
  return value;
}

/** Runs the session engine for the page (one per page) and gives it to everything inside. */
export function ListeningSessionProvider({ setup, children }: { setup: ListeningSessionSetup; children: ReactNode }) {
  const value = useSessionEngine(setup);
  return <ListeningSessionContext.Provider value={value}>{children}</ListeningSessionContext.Provider>;
}

function useSessionEngine(setup: ListeningSessionSetup): ListeningSessionValue {
  const { room, self, canStart } = setup;
  const selfId = self.user_id;
  const [session, setSession] = useState<SessionRow | null>(setup.initial.session);
  const [queue, setQueue] = useState<QueueEntry[]>(() => orderQueue(setup.initial.queue));
  /** Who is here, from the database's rows (lib/realtime/here-rows.ts), limited to the ids presence names. */
  const [hereRows, setHereRows] = useState<HereRow[]>([]);
  const [presenceSynced, setPresenceSynced] = useState(false);
  const rowsRef = useRef<HereRows | null>(null);
  const presenceHeardRef = useRef(false);
  const [tabId] = useState(() => crypto.randomUUID());
  const [status, setStatus] = useState<{ status: SessionChannelStatus; detail: string | null }>({ status: "joining", detail: null });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(0);
  const [following, setFollowing] = useState(true);
  const [alonePostId, setAlonePostId] = useState<string | null>(null);
  const [ended, setEnded] = useState(false);
  /** The host's own change, shown at once while its RPC is on its way. */
  const [local, setLocal] = useState<PlaybackState | null>(null);
  const [durations, setDurations] = useState<Record<string, number | null>>(setup.durations ?? {});

  const clock = useMemo(() => new ServerClock(() => Promise.reject(new Error("not ready"))), []);
  const dataRef = useRef<BrowserData | null>(null);
  const connectionRef = useRef<SessionConnection | null>(null);
  const sessionRef = useRef(session);
  const pendingRef = useRef(0);
  const heldRef = useRef<SessionRow | null>(null);
  const [clientsReady, setClientsReady] = useState(false);
  const tokenRef = useRef<string | null>(null);
  /** The last host heartbeat this page heard on the session's channel, and when (local time). */
  const lastBeatRef = useRef<{ hostId: string; at: number } | null>(null);

  /** A row from anywhere (broadcast, REST, an RPC's answer): kept when newer; the host's pending change holds it back. */
  const receive = useCallback((row: SessionRow | null) => {
    if (!row) return;
    if (!supersedes(row, sessionRef.current)) return;
    if (pendingRef.current > 0) {
      if (!heldRef.current || supersedes(row, heldRef.current)) heldRef.current = row;
      return;
    }
    sessionRef.current = row;
    setSession(row);
    if (row.ended_at) setEnded(true);
    else setEnded(false);
  }, []);

  const resync = useCallback(async () => {
    const data = dataRef.current;
    if (!data) return;
    if (clock.started) void clock.estimate(); // after a gap, the estimate may be stale too
    const fetched = await fetchSession(data, room.id);
    if (!fetched.ok) return;
    const { session: live, queue: entries } = fetched.data;
    const current = sessionRef.current;
    if (!live) {
      if (current && !current.ended_at) {
        // Ended while the page was away: read how it ended.
        const { data: row } = await data.from("listening_sessions").select("*").eq("id", current.id).maybeSingle();
        if (row) receive(row);
      }
      setQueue((entries) => (entries.length ? [] : entries));
      return;
    }
    receive(live);
    if (sessionRef.current?.id === live.id) setQueue(orderQueue(entries));
  }, [clock, receive, room.id]);

  // The data and live clients and the channel.
  useEffect(() => {
    let cancelled = false;
    void Promise.all([loadSupabaseData(), loadLiveClient()]).then(([data, live]) => {
      if (cancelled) return;
      dataRef.current = data;
      clock.setSource(async () => {
        const { data: ms, error: clockError } = await data.rpc("server_clock_ms");
        if (clockError || typeof ms !== "number") throw new Error(clockError?.message ?? "no clock");
        return ms;
      });
      rowsRef.current = HereRows.forRoom(data, room.id, (found) => {
        setHereRows(found);
        if (presenceHeardRef.current) setPresenceSynced(true);
      });
      setClientsReady(true);
      const connection = new SessionConnection(
        live,
        room.id,
        selfId,
        {
        onSession: receive,
        onQueue: (change) => setQueue((entries) => applyQueueChange(entries, change, sessionRef.current?.id ?? null)),
        onPresence: (ids) => {
          presenceHeardRef.current = true;
          rowsRef.current?.present(ids);
        },
        onStatus: (next, detail) => setStatus({ status: next, detail: detail ?? null }),
        onResync: () => void resync(),
        onHostBeat: (beat) => (lastBeatRef.current = { hostId: beat.host_id, at: localNow() }),
        },
        readRoomEpoch,
      );
      connectionRef.current = connection;
      // What happened between the server's render and this join.
      void resync();
    });
    return () => {
      cancelled = true;
      connectionRef.current?.close();
      connectionRef.current = null;
      rowsRef.current?.stop();
      rowsRef.current = null;
      const data = dataRef.current;
      if (data) void leaveHere(data, room.id, tabId);
    };
  }, [clock, receive, resync, room.id, selfId, tabId]);

  const live = session && !session.ended_at ? session : null;

  // The server's clock, while a session is live (nothing else needs it): estimated at once, then
  // kept fresh. Until the first estimate, the page goes by its own clock.
  useEffect(() => {
    if (!live?.id || !clientsReady) return;
    clock.start();
    void clock.estimate();
    return () => clock.stop();
  }, [live?.id, clientsReady, clock]);

  // This page is here: the database writes its row (in which session, following or not; since when
  // is the database's, and the order in which listeners take over from a host who left goes by it),
  // then presence tells the others to read it. Again every 30 s.
  const liveSessionId = live?.id ?? null;
  useEffect(() => {
    const connection = connectionRef.current;
    const data = dataRef.current;
    if (!connection || !data) return;
    return keepMarked(
      () => markHere(data, room.id, tabId, { sessionId: liveSessionId, following }),
      () => connection.setPresence({ user_id: selfId, at: Date.now() }),
      () => rowsRef.current?.prompt(),
    );
  }, [liveSessionId, following, status.status, clientsReady, room.id, selfId, tabId]);

  const hostId = live?.host_id ?? null;
  const isHost = live !== null && hostId === selfId;

  // The host's page: heartbeats, and on closing, tells the server the host's place is free.
  useEffect(() => {
    if (!isHost || !live) return;
    const sessionId = live.id;
    let stopped = false;
    const beat = async () => {
      const data = dataRef.current;
      if (!data || stopped) return;
      const answer = await sessionActions.heartbeat(data, sessionId);
      if (!answer.ok && answer.error !== sessionMessages.unreachable) void resync();
      tokenRef.current = await loadAccessToken();
    };
    void beat();
    const timer = setInterval(() => void beat(), heartbeatMs);
    const release = () => {
      if (tokenRef.current) releaseOnExit(publicConfig.supabaseUrl, publicConfig.supabaseKey, tokenRef.current, sessionId);
    };
    window.addEventListener("pagehide", release);
    return () => {
      stopped = true;
      clearInterval(timer);
      window.removeEventListener("pagehide", release);
    };
  }, [isHost, live?.id, resync]); // eslint-disable-line react-hooks/exhaustive-deps -- the session's id, not each version

  // The host left (no presence of theirs): the successor claims the place; the others later, in turn
  // (./succession.ts decides who and when; this page feeds it what it knows).
  const successionRef = useRef<HostSuccession | null>(null);
  useEffect(() => {
    const succession = new HostSuccession({
      claim: (sessionId, expectedHostId) => {
        const data = dataRef.current;
        return data ? sessionActions.claimHost(data, sessionId, expectedHostId) : Promise.resolve({ ok: false, error: sessionMessages.unreachable });
      },
      claimed: receive,
      resync: () => void resync(),
    });
    successionRef.current = succession;
    return () => succession.stop();
  }, [receive, resync]);
  // After the effect above (a new engine hears the view at once: this one depends on the same values).
  const liveId = live?.id ?? null;
  const metas = useMemo(() => hereRows.filter((row) => row.session_id !== null && row.session_id === liveId).map(listenerMetaOf), [hereRows, liveId]);
  const channelLive = status.status === "live";
  // A host whose heartbeats have stopped is gone, whatever presence says (./host-silence.ts): the
  // silence is counted from the last beat heard, or from when this page began listening for them.
  const silent = useHostSilence(hostId, channelLive && !isHost, lastBeatRef);
  const heard = useMemo(() => (silent ? metas.filter((meta) => meta.user_id !== hostId) : metas), [silent, metas, hostId]);
  useEffect(() => {
    successionRef.current?.update({ sessionId: liveId, hostId, selfId, listeners: heard, presenceSynced, live: channelLive });
  }, [liveId, hostId, selfId, heard, presenceSynced, channelLive, receive, resync]);

  const base = live ? playbackStateOf(live) : null;
  const playback = local ?? base;
  const duration = playback?.postId ? (durations[playback.postId] ?? null) : null;

  const position = useCallback(() => (playback ? positionAt(playback, clock.serverNow(), duration) : 0), [playback, clock, duration]);

  /** Runs an action: one at a time per kind is not needed; errors are kept in words. */
  const run = useCallback(
    async (action: (data: BrowserData) => Promise<{ ok: true; data: SessionRow | unknown } | { ok: false; error: string }>, optimistic?: PlaybackState): Promise<boolean> => {
      const data = dataRef.current ?? (await loadSupabaseData().catch(() => null));
      if (!data) {
        setError(sessionMessages.unreachable);
        return false;
      }
      setError(null);
      setBusy((n) => n + 1);
      pendingRef.current++;
      if (optimistic) setLocal(optimistic);
      try {
        const answer = await action(data);
        if (!answer.ok) setError(answer.error);
        if (answer.ok && answer.data && typeof answer.data === "object" && "version" in answer.data) {
          const row = answer.data as SessionRow;
          if (!heldRef.current || supersedes(row, heldRef.current)) heldRef.current = row;
        }
        return answer.ok;
      } finally {
        pendingRef.current--;
        setBusy((n) => n - 1);
        if (pendingRef.current === 0) {
          const held = heldRef.current;
          heldRef.current = null;
          setLocal(null);
          if (held) receive(held);
        }
      }
    },
    [receive],
  );

  const change = useCallback(
    (next: { postId: string | null; positionSeconds: number; playing: boolean; rate: number }) => {
      const current = sessionRef.current;
      if (!current || current.ended_at) {
        setError("This session has ended");
        return Promise.resolve(false);
      }
      const atMs = clock.serverNow();
      const optimistic: PlaybackState = { ...next, stateAtMs: atMs, version: current.version };
      return run((data) => sessionActions.setPlayback(data, { sessionId: current.id, ...next, atMs }), optimistic);
    },
    [clock, run],
  );

  const actions = useMemo<ListeningSessionActions>(() => {
    const now = () => (playback ? positionAt(playback, clock.serverNow(), duration) : 0);
    const postId = playback?.postId ?? null;
    const rate = playback?.rate ?? 1;
    return {
      start: (startPost) => run((data) => sessionActions.start(data, room.id, startPost ?? null)).then((ok) => (ok ? (void resync(), ok) : ok)),
      end: () => (sessionRef.current ? run((data) => sessionActions.end(data, sessionRef.current!.id)) : Promise.resolve(false)),
      play: () => change({ postId, positionSeconds: duration !== null && now() >= duration - 0.05 ? 0 : now(), playing: true, rate }),
      pause: () => change({ postId, positionSeconds: now(), playing: false, rate }),
      seek: (seconds) => change({ postId, positionSeconds: Math.max(0, duration !== null ? Math.min(seconds, duration) : seconds), playing: playback?.playing ?? false, rate }),
      next: () => {
        const current = sessionRef.current;
        if (!current) return Promise.resolve(false);
        return run((data) => sessionActions.next(data, { sessionId: current.id, afterPostId: postId, atMs: clock.serverNow() }));
      },
      playPost: (id) => change({ postId: id, positionSeconds: 0, playing: true, rate }),
      setRate: (nextRate) => change({ postId, positionSeconds: now(), playing: playback?.playing ?? false, rate: nextRate }),
      follow: () => setFollowing(true),
      listenAlone: () => {
        setAlonePostId(postId);
        setFollowing(false);
      },
      handOver: (userId) => (sessionRef.current ? run((data) => sessionActions.handOver(data, sessionRef.current!.id, userId)) : Promise.resolve(false)),
      clearError: () => setError(null),
    };
  }, [playback, clock, duration, run, change, room.id, resync]);

  // A post's duration, once known to the page (the player reports it for posts without one).
  useEffect(() => {
    const id = playback?.postId;
    if (!id || id in durations || !dataRef.current) return;
    void dataRef.current
      .from("posts")
      .select("id, duration_seconds")
      .eq("id", id)
      .maybeSingle()
      .then(({ data }) => data && setDurations((known) => ({ ...known, [data.id]: data.duration_seconds === null ? null : Number(data.duration_seconds) })));
  }, [playback?.postId, durations]);

  const listeners = useMemo(() => listenersOf(metas, hostId, selfId), [metas, hostId, selfId]);
  const canEnd = isHost || self.role === "owner" || self.role === "moderator";

  return {
    room,
    self,
    session: live,
    playback,
    queue: live ? queue : [],
    listeners,
    hostId,
    isHost,
    following: isHost || following,
    listeningTo: isHost || following ? (playback?.postId ?? null) : alonePostId,
    status: status.status,
    statusDetail: status.detail,
    error,
    busy: busy > 0,
    ended: ended && !live,
    canStart,
    canEnd,
    serverNow: () => clock.serverNow(),
    position,
    duration,
    actions,
  };
}

/**
 * Whether `hostId` has gone silent (no heartbeat heard for a few beats) while this page listens for
 * them (`listening`: the channel is live and this page does not host). Looked at every second.
 */
function useHostSilence(hostId: string | null, listening: boolean, lastBeat: { current: { hostId: string; at: number } | null }): boolean {
  // Kept with the host and the listening it was found for: a new host (or a rejoin) starts unheard, not silent.
  const key = listening && hostId ? hostId : null;
  const [found, setFound] = useState<{ key: string; silent: boolean } | null>(null);
  useEffect(() => {
    if (!key) return;
    const since = localNow();
    const look = () => {
      const silent = hostSilent(key, lastBeat.current, since, localNow());
      setFound((previous) => (previous?.key === key && previous.silent === silent ? previous : { key, silent }));
    };
    const timer = setInterval(look, 1_000);
    return () => clearInterval(timer);
  }, [key, lastBeat]);
  return found !== null && found.key === key && found.silent;
}

/** A listener as the database has them (their row and records), in the page's terms. */
function listenerMetaOf(row: HereRow): ListenerMeta {
  return {
    user_id: row.user_id,
    username: row.username,
    display_name: row.display_name,
    avatar_path: row.avatar_path,
    ens_name: row.ens_name,
    ens_avatar: row.ens_avatar,
    role: row.role,
    since: Date.parse(row.since),
    following: row.following,
  };
}

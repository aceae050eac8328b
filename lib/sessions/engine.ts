import { type HereRow, inTurn, keepMarked } from "@/lib/realtime/here-rows";
import type { HereWatch, SessionBackend } from "./backend";
import { ServerClock } from "./clock";
import type { SessionChannelStatus } from "./connection";
import { Effects, memo } from "./effects";
import type { ListeningSessionActions, ListeningSessionSetup, LiveSession, SessionEngineDeps, SessionSnapshot } from "./engine-api";
import { beatWhileHosting } from "./heartbeat";
import { watchHostSilence } from "./host-silence";
import { sessionMessages } from "./rpc";
import { applyQueueChange, listenersOf, orderQueue, supersedes } from "./state";
import { HostSuccession } from "./succession";
import type { ReadyMark } from "./ready-check";
import { positionAt } from "./timeline";
import {
  type ListenerMeta,
  type PlaybackState,
  type QueueEntry,
  type SessionActionResult,
  type SessionRow,
  playbackStateOf,
} from "./types";

interface EngineState {
  session: SessionRow | null;
  queue: QueueEntry[];
  /** Who is here, from the database's rows (lib/realtime/here-rows.ts), limited to the ids presence names. */
  hereRows: HereRow[];
  presenceSynced: boolean;
  status: SessionChannelStatus;
  detail: string | null;
  error: string | null;
  busy: number;
  following: boolean;
  alonePostId: string | null;
  ended: boolean;
  /** The host's own change, shown at once while its RPC is on its way. */
  local: PlaybackState | null;
  durations: Record<string, number | null>;
  clientsReady: boolean;
  /** Whether the host was last found silent, and which host (./host-silence.ts). */
  silence: { key: string; silent: boolean } | null;
}

/** What the effects depend on, besides the state: computed with the snapshot. */
interface Derived {
  liveId: string | null;
  hostId: string | null;
  isHost: boolean;
  channelLive: boolean;
  silenceKey: string | null;
  heard: ListenerMeta[];
  postId: string | null;
}

type Answer = SessionActionResult<SessionRow | unknown>;

/**
 * The listening session of one page, as a plain store: what the page knows of the session (its row,
 * queue, listeners, the channel's state, the host's own change on its way) and what the person can
 * do. Read it with `subscribe`/`getSnapshot` (useSyncExternalStore); `start()` connects it (clients,
 * channel, clock, presence, heartbeat, succession), `stop()` disconnects it and it sends nothing more
 * (a later `start()` connects it again, as React's strict mode does).
 *
 * The parts keep their own modules: the clock estimate (./clock.ts), the heartbeat (./heartbeat.ts),
 * a silent host (./host-silence.ts), succession (./succession.ts), merging rows (./state.ts).
 */
export class SessionEngine {
  readonly tabId: string;
  private state: EngineState;
  private snapshot: SessionSnapshot;
  private derived: Derived;
  private readonly subscribers = new Set<() => void>();
  private readonly selfId: string;
  private readonly clock: ServerClock;
  private readonly effects: Effects;
  private backend: SessionBackend | null = null;
  private connection: LiveSession | null = null;
  private rows: HereWatch | null = null;
  /** This page's writes to its presence row, in order (lib/realtime/here-rows.ts: inTurn). */
  private readonly ownRow = inTurn();
  private succession: HostSuccession | null = null;
  private presenceHeard = false;
  /** Actions on their way, and the newest row heard meanwhile (held back until they are answered). */
  private pending = 0;
  private held: SessionRow | null = null;
  /** The last host heartbeat this page heard on the session's channel, and when (local time). */
  private lastBeat: { hostId: string; at: number } | null = null;
  private readonly token: { current: string | null } = { current: null };
  /** Who hears the `ready` marks (the host's ready check: lib/sessions/ready-check-store.ts). */
  private readonly readyListeners = new Set<(mark: ReadyMark) => void>();
  private readonly watchReady = (listener: (mark: ReadyMark) => void): (() => void) => {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  };
  private running = false;
  private batching = 0;
  private dirty = false;
  private committing = false;

  private readonly metasOf = memo((rows: HereRow[], liveId: string | null) =>
    rows.filter((row) => row.session_id !== null && row.session_id === liveId).map(listenerMetaOf),
  );
  private readonly heardOf = memo((silent: boolean, metas: ListenerMeta[], hostId: string | null) =>
    silent ? metas.filter((meta) => meta.user_id !== hostId) : metas,
  );
  private readonly listenersOf = memo((metas: ListenerMeta[], hostId: string | null, selfId: string) => listenersOf(metas, hostId, selfId));
  private readonly baseOf = memo((live: SessionRow | null) => (live ? playbackStateOf(live) : null));

  constructor(
    setup: ListeningSessionSetup,
    private readonly deps: SessionEngineDeps,
  ) {
    this.selfId = setup.self.user_id;
    this.tabId = deps.tabId ?? crypto.randomUUID();
    this.clock = new ServerClock(() => Promise.reject(new Error("not ready")), { now: deps.now });
    this.state = {
      session: setup.initial.session,
      queue: orderQueue(setup.initial.queue),
      hereRows: [],
      presenceSynced: false,
      status: "joining",
      detail: null,
      error: null,
      busy: 0,
      following: true,
      alonePostId: null,
      ended: false,
      local: null,
      durations: setup.durations ?? {},
      clientsReady: false,
      silence: null,
    };
    [this.snapshot, this.derived] = this.build();
    // Set up and cleaned up in this order: the clients and the channel, the clock, presence marks, the
    // heartbeat, succession and what feeds it, a post's duration.
    this.effects = new Effects([
      { deps: () => [], run: () => this.connect() },
      { deps: () => [this.derived.liveId, this.state.clientsReady], run: () => this.keepClock() },
      { deps: () => [this.derived.liveId, this.state.following, this.state.status, this.state.clientsReady], run: () => this.keepMarked() },
      { deps: () => [this.derived.isHost, this.derived.liveId], run: () => this.beatWhileHosting() },
      { deps: () => [], run: () => this.takeOverWhenGone() },
      { deps: () => [this.derived.silenceKey], run: () => this.watchSilence() },
      {
        deps: () => [this.derived.liveId, this.derived.hostId, this.derived.heard, this.state.presenceSynced, this.derived.channelLive],
        run: () => this.feedSuccession(),
      },
      { deps: () => [this.derived.postId, this.state.durations], run: () => this.readDuration() },
    ]);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  };

  readonly getSnapshot = (): SessionSnapshot => this.snapshot;

  start(): void {
    if (this.running) return;
    this.running = true;
    this.commit();
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.effects.clear();
  }

  // --- State ---------------------------------------------------------------------------------

  private set(patch: Partial<EngineState>): void {
    this.state = { ...this.state, ...patch };
    this.dirty = true;
    if (this.batching === 0) this.commit();
  }

  /** Changes made inside `run` show (and move the effects) once, together. */
  private batch(run: () => void): void {
    this.batching++;
    try {
      run();
    } finally {
      this.batching--;
      if (this.batching === 0 && this.dirty) this.commit();
    }
  }

  /** The snapshot anew (when the state changed), then the effects whose deps changed; then the subscribers hear of it. */
  private commit(): void {
    if (this.committing) return; // the loop below picks the change up
    this.committing = true;
    let changed = false;
    try {
      do {
        if (this.dirty) {
          this.dirty = false;
          changed = true;
          [this.snapshot, this.derived] = this.build();
        }
        if (this.running) this.effects.sync();
      } while (this.dirty);
    } finally {
      this.committing = false;
    }
    if (changed) for (const listener of this.subscribers) listener();
  }

  private build(): [SessionSnapshot, Derived] {
    const s = this.state;
    const live = s.session && !s.session.ended_at ? s.session : null;
    const liveId = live?.id ?? null;
    const hostId = live?.host_id ?? null;
    const isHost = live !== null && hostId === this.selfId;
    const metas = this.metasOf(s.hereRows, liveId);
    const channelLive = s.status === "live";
    // A host whose heartbeats have stopped is gone, whatever presence says (./host-silence.ts): kept
    // with the host and the listening it was found for, so a new host starts unheard, not silent.
    const silenceKey = channelLive && !isHost && hostId ? hostId : null;
    const silent = s.silence !== null && s.silence.key === silenceKey && s.silence.silent;
    const heard = this.heardOf(silent, metas, hostId);
    const playback = s.local ?? this.baseOf(live);
    const duration = playback?.postId ? (s.durations[playback.postId] ?? null) : null;
    const clock = this.clock;
    const snapshot: SessionSnapshot = {
      session: live,
      playback,
      queue: live ? s.queue : [],
      listeners: this.listenersOf(metas, hostId, this.selfId),
      hostId,
      isHost,
      following: isHost || s.following,
      listeningTo: isHost || s.following ? (playback?.postId ?? null) : s.alonePostId,
      status: s.status,
      statusDetail: s.detail,
      error: s.error,
      busy: s.busy > 0,
      ended: s.ended && !live,
      serverNow: () => clock.serverNow(),
      position: () => (playback ? positionAt(playback, clock.serverNow(), duration) : 0),
      duration,
      actions: this.actionsFor(playback, duration),
      watchReady: this.watchReady,
    };
    return [snapshot, { liveId, hostId, isHost, channelLive, silenceKey, heard, postId: playback?.postId ?? null }];
  }

  /** A row from anywhere (broadcast, REST, an RPC's answer): kept when newer; the host's pending change holds it back. */
  private receive(row: SessionRow | null): void {
    if (!row) return;
    if (!supersedes(row, this.state.session)) return;
    if (this.pending > 0) {
      if (!this.held || supersedes(row, this.held)) this.held = row;
      return;
    }
    this.set({ session: row, ended: Boolean(row.ended_at) });
  }

  private async resync(): Promise<void> {
    const backend = this.backend;
    if (!backend || !this.running) return;
    if (this.clock.started) void this.clock.estimate(); // after a gap, the estimate may be stale too
    const fetched = await backend.fetchSession();
    if (!fetched.ok) return;
    const { session: live, queue: entries } = fetched.data;
    const current = this.state.session;
    if (!live) {
      // Ended while the page was away: read how it ended.
      const row = current && !current.ended_at ? await backend.readSession(current.id) : null;
      this.batch(() => {
        if (row) this.receive(row);
        if (this.state.queue.length) this.set({ queue: [] });
      });
      return;
    }
    this.batch(() => {
      this.receive(live);
      if (this.state.session?.id === live.id) this.set({ queue: orderQueue(entries) });
    });
  }

  // --- Actions -------------------------------------------------------------------------------

  /** Runs an action: errors are kept in words; `optimistic` shows at once until it is answered. */
  private async run(action: (backend: SessionBackend) => Promise<Answer>, optimistic?: PlaybackState): Promise<boolean> {
    const backend = this.backend ?? (await this.deps.loadBackend().catch(() => null));
    if (!backend) {
      this.set({ error: sessionMessages.unreachable });
      return false;
    }
    this.pending++;
    this.set({ error: null, busy: this.state.busy + 1, ...(optimistic ? { local: optimistic } : {}) });
    let answer: Answer | undefined;
    try {
      answer = await action(backend);
    } finally {
      this.batch(() => this.settle(answer));
    }
    return answer.ok;
  }

  /** An action answered (`answer`; undefined when it threw): its error kept, its row held until none is on its way. */
  private settle(answer: Answer | undefined): void {
    if (answer && !answer.ok) this.set({ error: answer.error });
    if (answer?.ok && answer.data && typeof answer.data === "object" && "version" in answer.data) {
      const row = answer.data as SessionRow;
      if (!this.held || supersedes(row, this.held)) this.held = row;
    }
    this.pending--;
    this.set({ busy: this.state.busy - 1 });
    if (this.pending === 0) {
      const held = this.held;
      this.held = null;
      this.set({ local: null });
      if (held) this.receive(held);
    }
  }

  private change(next: { postId: string | null; positionSeconds: number; playing: boolean; rate: number }): Promise<boolean> {
    const current = this.state.session;
    if (!current || current.ended_at) {
      this.set({ error: "This session has ended" });
      return Promise.resolve(false);
    }
    const atMs = this.clock.serverNow();
    const optimistic: PlaybackState = { ...next, stateAtMs: atMs, version: current.version };
    return this.run((backend) => backend.setPlayback({ sessionId: current.id, ...next, atMs }), optimistic);
  }

  private actionsFor(playback: PlaybackState | null, duration: number | null): ListeningSessionActions {
    const now = () => (playback ? positionAt(playback, this.clock.serverNow(), duration) : 0);
    const postId = playback?.postId ?? null;
    const rate = playback?.rate ?? 1;
    const session = () => this.state.session;
    return {
      start: (startPost) => this.run((backend) => backend.start(startPost ?? null)).then((ok) => (ok ? (void this.resync(), ok) : ok)),
      end: () => (session() ? this.run((backend) => backend.end(session()!.id)) : Promise.resolve(false)),
      play: () => this.change({ postId, positionSeconds: duration !== null && now() >= duration - 0.05 ? 0 : now(), playing: true, rate }),
      pause: () => this.change({ postId, positionSeconds: now(), playing: false, rate }),
      seek: (seconds) =>
        this.change({
          postId,
          positionSeconds: Math.max(0, duration !== null ? Math.min(seconds, duration) : seconds),
          playing: playback?.playing ?? false,
          rate,
        }),
      next: () => {
        const current = session();
        if (!current) return Promise.resolve(false);
        return this.run((backend) => backend.next({ sessionId: current.id, afterPostId: postId, atMs: this.clock.serverNow() }));
      },
      playPost: (id) => this.change({ postId: id, positionSeconds: 0, playing: true, rate }),
      setRate: (nextRate) => this.change({ postId, positionSeconds: now(), playing: playback?.playing ?? false, rate: nextRate }),
      load: (id) => this.change({ postId: id, positionSeconds: 0, playing: false, rate }),
      follow: () => this.set({ following: true }),
      listenAlone: () => this.set({ alonePostId: postId, following: false }),
      handOver: (userId) => (session() ? this.run((backend) => backend.handOver(session()!.id, userId)) : Promise.resolve(false)),
      clearError: () => this.set({ error: null }),
    };
  }

  // --- Effects, in their order ---------------------------------------------------------------

  /** The page's clients and the session's channel; on stop, this page leaves "here". */
  private connect(): () => void {
    let cancelled = false;
    void this.deps.load().then(({ backend, connect }) => {
      if (cancelled) return;
      this.batch(() => {
        this.backend = backend;
        this.clock.setSource(() => backend.serverClockMs());
        this.rows = backend.watchHere((found) => this.set({ hereRows: found, ...(this.presenceHeard ? { presenceSynced: true } : {}) }));
        this.set({ clientsReady: true });
        this.connection = connect({
          onSession: (row) => this.receive(row),
          onQueue: (change) => this.set({ queue: applyQueueChange(this.state.queue, change, this.state.session?.id ?? null) }),
          onPresence: (ids) => {
            this.presenceHeard = true;
            this.rows?.present(ids);
          },
          onStatus: (status, detail) => this.set({ status, detail: detail ?? null }),
          onResync: () => void this.resync(),
          onHostBeat: (beat) => (this.lastBeat = { hostId: beat.host_id, at: this.deps.now() }),
          onReady: (mark) => this.readyListeners.forEach((listener) => listener(mark)),
        });
        // What happened between the server's render and this join.
        void this.resync();
      });
    });
    return () => {
      cancelled = true;
      this.connection?.close();
      this.connection = null;
      this.rows?.stop();
      this.rows = null;
      const backend = this.backend;
      if (backend) void this.ownRow(() => backend.leaveHere(this.tabId));
    };
  }

  /**
   * The server's clock, while a session is live (nothing else needs it): estimated at once, then kept
   * fresh. Until the first estimate, the page goes by its own clock.
   */
  private keepClock(): (() => void) | void {
    if (!this.derived.liveId || !this.state.clientsReady) return;
    this.clock.start();
    void this.clock.estimate();
    return () => this.clock.stop();
  }

  /**
   * This page is here: the database writes its row (in which session, following or not; since when is
   * the database's, and the order in which listeners take over from a host who left goes by it), then
   * presence tells the others to read it. Again every 30 s, and whenever the channel's state changes;
   * one mark at a time, so the row ends up saying what the page said last.
   */
  private keepMarked(): (() => void) | void {
    const connection = this.connection;
    const backend = this.backend;
    if (!connection || !backend) return;
    const sessionId = this.derived.liveId;
    const following = this.state.following;
    return keepMarked(
      () => this.ownRow(() => backend.markHere(this.tabId, { sessionId, following })),
      () => connection.setPresence({ user_id: this.selfId, at: Date.now() }),
      () => this.rows?.prompt(),
    );
  }

  /** The host's page: heartbeats, and on closing, tells the server the host's place is free. */
  private beatWhileHosting(): (() => void) | void {
    const { isHost, liveId } = this.derived;
    if (!isHost || !liveId) return;
    return beatWhileHosting(liveId, {
      backend: () => this.backend,
      resync: () => void this.resync(),
      accessToken: () => this.deps.accessToken(),
      token: this.token,
      releaseOnExit: (accessToken, sessionId) => this.deps.releaseOnExit(accessToken, sessionId),
      onPageHide: (listener) => this.deps.onPageHide(listener),
    });
  }

  /** The host left (no presence of theirs): the successor claims the place; the others later, in turn (./succession.ts). */
  private takeOverWhenGone(): () => void {
    const succession = new HostSuccession({
      claim: (sessionId, expectedHostId) =>
        this.backend
          ? this.backend.claimHost(sessionId, expectedHostId)
          : Promise.resolve({ ok: false, error: sessionMessages.unreachable }),
      claimed: (row) => this.receive(row),
      resync: () => void this.resync(),
    });
    this.succession = succession;
    return () => succession.stop();
  }

  /** Whether the host has gone silent, looked at every second while this page listens for them (the channel is live, another hosts). */
  private watchSilence(): (() => void) | void {
    const key = this.derived.silenceKey;
    if (!key) return;
    return watchHostSilence(
      key,
      () => this.lastBeat,
      this.deps.now,
      (silent) => {
        const found = this.state.silence;
        if (found?.key !== key || found.silent !== silent) this.set({ silence: { key, silent } });
      },
    );
  }

  /** What succession needs to know: the session, its host, who is here (without a silent host), the channel. */
  private feedSuccession(): void {
    const { liveId, hostId, heard, channelLive } = this.derived;
    // DJ turns with nobody playing: there is no host's place to take (the waitlist starts the next turn).
    const noTurn = hostId === null && this.state.session?.mode === "dj_turns";
    this.succession?.update({
      sessionId: noTurn ? null : liveId,
      hostId,
      selfId: this.selfId,
      listeners: heard,
      presenceSynced: this.state.presenceSynced,
      live: channelLive,
    });
  }

  /** A post's duration, once known to the page (the player reports it for posts without one). */
  private readDuration(): void {
    const id = this.derived.postId;
    if (!id || id in this.state.durations || !this.backend) return;
    void this.backend
      .readDuration(id)
      .then((found) => found && this.set({ durations: { ...this.state.durations, [found.id]: found.seconds } }));
  }
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

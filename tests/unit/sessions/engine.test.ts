// The listening session's engine (lib/sessions/engine.ts), on fake timers, against an in-memory
// server (its backend) and session channel: the clock estimate, the host's heartbeat and release on
// exit, taking over from a host who left or went silent, the host's own changes shown at once and
// rolled back when refused, presence marks, and that a stopped engine sends nothing more.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { type HereRow, HereRows, type Mark } from "@/lib/realtime/here-rows";
import type { PresenceMeta } from "@/lib/realtime/presence";
import type { SessionBackend } from "@/lib/sessions/backend";
import type { SessionChannelHandlers } from "@/lib/sessions/connection";
import { SessionEngine } from "@/lib/sessions/engine";
import type { ListeningSessionSetup } from "@/lib/sessions/engine-api";
import { hostSilentAfterMs } from "@/lib/sessions/host-silence";
import { sessionMessages } from "@/lib/sessions/rpc";
import { fallbackStepMs, hostQuietMs } from "@/lib/sessions/successor";
import type { RoomRole, SessionActionResult, SessionRow } from "@/lib/sessions/types";

const t0 = Date.parse("2030-01-01T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(t0);
});
afterEach(() => {
  vi.useRealTimers();
});

const sessionRow = (patch: Partial<SessionRow> = {}): SessionRow => ({
  id: "s1",
  room_id: "room-1",
  host_id: "host",
  post_id: "p1",
  position_seconds: 0,
  playing: false,
  rate: 1,
  state_at: iso(t0),
  version: 1,
  started_at: iso(t0 - 60_000),
  started_by: "host",
  ended_at: null,
  host_seen_at: iso(t0),
  ready_check_seconds: 10,
  ready_check_each_track: false,
  mode: "host",
  track: 1,
  turn: 0,
  turn_ends_at: "1970-01-01T00:00:00Z",
  dj_waitlist: [],
  skip_votes: 0,
  skip_needed: 0,
  skip_voters: [],
  ...patch,
});

/** A person's row in public.presence, in session s1; `since` orders who takes over. */
const hereRow = (user_id: string, since: number, role: RoomRole = "member"): HereRow => ({
  user_id,
  username: user_id,
  display_name: user_id,
  avatar_path: null,
  ens_name: null,
  ens_avatar: null,
  role,
  session_id: "s1",
  playing_post_id: null,
  playing_title: null,
  following: true,
  since: iso(since),
  seen_at: iso(since),
});

type Call = { name: string; args: unknown[] };
type Reply<T> = SessionActionResult<T> | Promise<SessionActionResult<T>>;

/**
 * One page of `selfId` and the world around it: a server holding the session (`server.session`) and
 * who is here (`server.rows`), answering each request at once unless a test says otherwise; the
 * session's channel (`channel()`: the handlers the engine gave it); the page's closing (`pageHide()`).
 */
function page(
  selfId: string,
  { session = sessionRow() as SessionRow | null, durations = {} as Record<string, number | null>, clockAheadMs = 0 } = {},
) {
  const server = { session, rows: [] as HereRow[] };
  const calls: Call[] = [];
  const presence: PresenceMeta[] = [];
  const released: [string, string][] = [];
  const pageHideListeners = new Set<() => void>();
  let handlers: SessionChannelHandlers | null = null;
  let closed = 0;
  const replies = {
    setPlayback: null as null | ((input: Parameters<SessionBackend["setPlayback"]>[0]) => Reply<SessionRow>),
    heartbeat: (): Reply<string> => ({ ok: true, data: iso(Date.now()) }),
    serverClockMs: async (): Promise<number> => Date.now() + clockAheadMs,
    markHere: null as null | ((mark: Mark) => Promise<number | null>),
  };
  const record = (name: string, ...args: unknown[]) => void calls.push({ name, args });
  const backend: SessionBackend = {
    start: async (postId) => (
      record("start", postId),
      { ok: true, data: (server.session = sessionRow({ id: "s2", host_id: selfId, post_id: postId })) }
    ),
    end: async (sessionId) => (
      record("end", sessionId),
      { ok: true, data: (server.session = { ...server.session!, ended_at: iso(Date.now()), version: server.session!.version + 1 }) }
    ),
    setPlayback: async (input) => {
      record("setPlayback", input);
      if (replies.setPlayback) return replies.setPlayback(input);
      const row = sessionRow({
        ...server.session,
        post_id: input.postId,
        position_seconds: input.positionSeconds,
        playing: input.playing,
        rate: input.rate,
        state_at: iso(input.atMs),
        version: server.session!.version + 1,
      });
      return { ok: true, data: (server.session = row) };
    },
    next: async (input) => (record("next", input), { ok: true, data: server.session! }),
    heartbeat: async (sessionId) => (record("heartbeat", sessionId), replies.heartbeat()),
    claimHost: async (sessionId, expected) => {
      record("claimHost", sessionId, expected);
      return { ok: true, data: (server.session = { ...server.session!, host_id: selfId, version: server.session!.version + 1 }) };
    },
    handOver: async (sessionId, to) => (record("handOver", sessionId, to), { ok: true, data: server.session! }),
    fetchSession: async () => {
      record("fetchSession");
      const live = server.session && !server.session.ended_at ? server.session : null;
      return { ok: true, data: { session: live, queue: [] } };
    },
    readSession: async (id) => (record("readSession", id), server.session),
    readDuration: async (postId) => (record("readDuration", postId), null),
    serverClockMs: () => (record("serverClockMs"), replies.serverClockMs()),
    watchHere: (onRows) =>
      new HereRows(
        async () => (record("whoIsHere"), server.rows),
        onRows,
        () => 0,
      ),
    markHere: async (tabId, mark) => (record("markHere", tabId, mark), replies.markHere ? replies.markHere(mark) : Date.now()),
    leaveHere: async (tabId) => void record("leaveHere", tabId),
  };
  const setup: ListeningSessionSetup = {
    room: { id: "room-1", slug: "room", name: "Room", gated: false },
    self: { user_id: selfId, username: selfId, display_name: selfId, avatar_path: null, ens_name: null, ens_avatar: null, role: "member" },
    canStart: true,
    initial: { session, queue: [] },
    durations,
  };
  const engine = new SessionEngine(setup, {
    load: async () => ({
      backend,
      connect: (given) => {
        handlers = given;
        return { setPresence: (meta) => void (meta && presence.push(meta)), close: () => void closed++ };
      },
    }),
    loadBackend: async () => backend,
    accessToken: async () => `token-of-${selfId}`,
    releaseOnExit: (token, sessionId) => void released.push([token, sessionId]),
    onPageHide: (listener) => {
      pageHideListeners.add(listener);
      return () => pageHideListeners.delete(listener);
    },
    now: () => Date.now(),
    tabId: `tab-of-${selfId}`,
  });
  const channel = () => {
    if (!handlers) throw new Error("the engine has not joined the channel");
    return handlers;
  };
  return {
    engine,
    server,
    calls,
    replies,
    presence,
    released,
    closed: () => closed,
    count: (name: string) => calls.filter((call) => call.name === name).length,
    channel,
    pageHide: () => [...pageHideListeners].forEach((listener) => listener()),
    pageHideListeners,
    /** The channel is joined and presence names these people (their rows are the server's). */
    async live(rows: HereRow[]) {
      server.rows = rows;
      channel().onStatus("live");
      channel().onPresence(new Set(rows.map((row) => row.user_id)));
      await settle(); // the rows are read
      await settle(); // and what they say is acted on
    },
  };
}

/** Lets what is due now run: a timer set for now by a promise that settled meanwhile, too. */
const settle = () => vi.advanceTimersByTimeAsync(1);

/** Starts the engine and lets its clients load. */
async function started(p: ReturnType<typeof page>) {
  p.engine.start();
  await vi.advanceTimersByTimeAsync(0);
  return p;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe("the server's clock", () => {
  test("while a session is live, the page estimates the server's clock from the sample with the shortest round trip", async () => {
    const aheadMs = 90_000;
    // Five samples; the server read its clock at the midpoint of the shortest (10 ms) only, at either
    // end of the others: only that sample gives the true offset.
    const trips = [
      { ms: 80, readAt: 0 },
      { ms: 10, readAt: 5 },
      { ms: 60, readAt: 60 },
      { ms: 40, readAt: 0 },
      { ms: 120, readAt: 120 },
    ];
    const p = page("bo", { session: sessionRow({ playing: true, position_seconds: 10, state_at: iso(t0 + aheadMs) }) });
    p.replies.serverClockMs = async () => {
      const trip = trips.shift() ?? { ms: 500, readAt: 0 };
      await new Promise((done) => setTimeout(done, trip.readAt));
      const serverMs = Date.now() + aheadMs;
      await new Promise((done) => setTimeout(done, trip.ms - trip.readAt));
      return serverMs;
    };
    p.engine.start();
    // Until estimated, the page goes by its own clock: the state (stamped by the server) is still ahead.
    expect(p.engine.getSnapshot().serverNow()).toBe(Date.now());
    expect(p.engine.getSnapshot().position()).toBe(10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.count("serverClockMs")).toBe(5);
    expect(p.engine.getSnapshot().serverNow() - Date.now()).toBe(aheadMs);
    // By the estimate, the state's server time was when the page started: it has played since.
    expect(p.engine.getSnapshot().position()).toBeCloseTo(10 + (Date.now() + aheadMs - (t0 + aheadMs)) / 1000, 6);
  });

  test("it is estimated again every 30 s while the session is live, and never on a page without one", async () => {
    const withSession = await started(page("bo"));
    const without = await started(page("cy", { session: null }));
    expect(withSession.count("serverClockMs")).toBe(5);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(withSession.count("serverClockMs")).toBe(10);
    expect(without.count("serverClockMs")).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(without.count("serverClockMs")).toBe(0);
  });
});

describe("the host's heartbeat", () => {
  test("the host's page beats every 2 s and, on closing, frees the host's place with the token it last read", async () => {
    const p = await started(page("host"));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(p.calls.filter((call) => call.name === "heartbeat").map((call) => call.args)).toEqual(Array.from({ length: 5 }, () => ["s1"]));
    p.pageHide();
    expect(p.released).toEqual([["token-of-host", "s1"]]);
  });

  test("stop() ends the beats and the listening for the page's closing", async () => {
    const p = await started(page("host"));
    await vi.advanceTimersByTimeAsync(4_000);
    const beats = p.count("heartbeat");
    expect(beats).toBeGreaterThan(0);
    p.engine.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(p.count("heartbeat")).toBe(beats);
    expect(p.pageHideListeners.size).toBe(0);
  });

  test("a member who does not host sends no heartbeat", async () => {
    const p = await started(page("bo"));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(p.count("heartbeat")).toBe(0);
    p.pageHide();
    expect(p.released).toEqual([]);
  });

  test("a refused beat (someone else hosts now) fetches the session again; an unreachable server does not", async () => {
    const p = await started(page("host"));
    const fetched = p.count("fetchSession");
    p.replies.heartbeat = () => ({ ok: false, error: sessionMessages.unreachable });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(p.count("fetchSession")).toBe(fetched);
    p.replies.heartbeat = () => ({ ok: false, error: "You are not the host of this session" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(p.count("fetchSession")).toBe(fetched + 1);
  });

  test("a page that becomes host begins to beat at once", async () => {
    const p = await started(page("bo"));
    p.channel().onSession(sessionRow({ host_id: "bo", version: 2 }));
    expect(p.engine.getSnapshot().isHost).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(p.count("heartbeat")).toBe(1);
  });
});

describe("taking over from a host who left", () => {
  // bo has been here longest, then dee; neither leads the room, so bo is next in line.
  const bo = hereRow("bo", t0 - 50_000);
  const dee = hereRow("dee", t0 - 40_000);
  const host = hereRow("host", t0 - 60_000);

  test("the host's presence goes: the next in line claims the place at once and hosts", async () => {
    const p = await started(page("bo"));
    await p.live([bo, dee]);
    expect(p.calls.filter((call) => call.name === "claimHost").map((call) => call.args)).toEqual([["s1", "host"]]);
    expect(p.engine.getSnapshot().isHost).toBe(true);
    expect(p.engine.getSnapshot().hostId).toBe("bo");
  });

  test("a member who is not next waits for the one ahead, and claims nothing once they host", async () => {
    const p = await started(page("dee"));
    await p.live([bo, dee]);
    await vi.advanceTimersByTimeAsync(hostQuietMs + fallbackStepMs - 100);
    expect(p.count("claimHost")).toBe(0);
    p.channel().onSession(sessionRow({ host_id: "bo", version: 2 }));
    for (let i = 0; i < 30; i++) {
      p.channel().onHostBeat?.({ session_id: "s1", host_id: "bo", seen_at: iso(Date.now()) });
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(p.count("claimHost")).toBe(0);
    expect(p.engine.getSnapshot().hostId).toBe("bo");
  });

  test("a host still in presence but silent (no heartbeat) is taken over once the silence passes the threshold, not before", async () => {
    const p = await started(page("bo"));
    await p.live([host, bo, dee]);
    await vi.advanceTimersByTimeAsync(hostSilentAfterMs);
    expect(p.count("claimHost")).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(p.calls.filter((call) => call.name === "claimHost").map((call) => call.args)).toEqual([["s1", "host"]]);
    expect(p.engine.getSnapshot().hostId).toBe("bo");
  });

  test("a host whose heartbeats keep coming is not taken over", async () => {
    const p = await started(page("bo"));
    await p.live([host, bo, dee]);
    for (let i = 0; i < 15; i++) {
      p.channel().onHostBeat?.({ session_id: "s1", host_id: "host", seen_at: iso(Date.now()) });
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(p.count("claimHost")).toBe(0);
    expect(p.engine.getSnapshot().hostId).toBe("host");
  });
});

describe("the host's own changes", () => {
  const paused = sessionRow({ host_id: "host", post_id: "p1", position_seconds: 0, playing: false, version: 3 });

  test("play, pause and seek show at once, while their requests are on their way; the server's answers are kept", async () => {
    const p = await started(page("host", { session: paused, durations: { p1: 200 } }));
    const answers: ReturnType<typeof deferred<SessionActionResult<SessionRow>>>[] = [];
    p.replies.setPlayback = () => {
      const answer = deferred<SessionActionResult<SessionRow>>();
      answers.push(answer);
      return answer.promise;
    };
    const serverRow = (playing: boolean, position: number, version: number) =>
      sessionRow({ host_id: "host", post_id: "p1", playing, position_seconds: position, version, state_at: iso(Date.now()) });

    const play = p.engine.getSnapshot().actions.play();
    expect(p.engine.getSnapshot().playback).toMatchObject({ postId: "p1", playing: true, positionSeconds: 0 });
    expect(p.engine.getSnapshot().busy).toBe(true);
    answers[0].resolve({ ok: true, data: serverRow(true, 0, 4) });
    expect(await play).toBe(true);
    expect(p.engine.getSnapshot().session?.version).toBe(4);
    expect(p.engine.getSnapshot().busy).toBe(false);

    await vi.advanceTimersByTimeAsync(5_000);
    const pause = p.engine.getSnapshot().actions.pause();
    expect(p.engine.getSnapshot().playback).toMatchObject({ playing: false, positionSeconds: 5 });
    answers[1].resolve({ ok: true, data: serverRow(false, 5, 5) });
    expect(await pause).toBe(true);

    const seek = p.engine.getSnapshot().actions.seek(500); // past the end: the end
    expect(p.engine.getSnapshot().playback).toMatchObject({ playing: false, positionSeconds: 200 });
    expect(p.engine.getSnapshot().position()).toBe(200);
    answers[2].resolve({ ok: true, data: serverRow(false, 200, 6) });
    expect(await seek).toBe(true);
    expect(p.engine.getSnapshot().session).toMatchObject({ version: 6, position_seconds: 200 });
    expect(
      p.calls.filter((call) => call.name === "setPlayback").map((call) => (call.args[0] as { positionSeconds: number }).positionSeconds),
    ).toEqual([0, 5, 200]);
  });

  test("a change the server refuses goes back to the server's state, and the refusal's words are shown", async () => {
    const p = await started(page("host", { session: paused }));
    const answer = deferred<SessionActionResult<SessionRow>>();
    p.replies.setPlayback = () => answer.promise;
    const listener = vi.fn();
    p.engine.subscribe(listener);
    const seek = p.engine.getSnapshot().actions.seek(42);
    expect(p.engine.getSnapshot().playback?.positionSeconds).toBe(42);
    expect(listener).toHaveBeenCalled();
    answer.resolve({ ok: false, error: "Only the host can change the playback" });
    expect(await seek).toBe(false);
    const after = p.engine.getSnapshot();
    expect(after.playback).toMatchObject({ positionSeconds: 0, playing: false, version: 3 });
    expect(after.error).toBe("Only the host can change the playback");
    expect(after.busy).toBe(false);
    after.actions.clearError();
    expect(p.engine.getSnapshot().error).toBeNull();
  });

  test("a row heard while a change is on its way is held back, and shown if the change is refused", async () => {
    const p = await started(page("host", { session: paused }));
    const answer = deferred<SessionActionResult<SessionRow>>();
    p.replies.setPlayback = () => answer.promise;
    const play = p.engine.getSnapshot().actions.play();
    p.channel().onSession(sessionRow({ host_id: "host", post_id: "p2", version: 4 }));
    expect(p.engine.getSnapshot().session?.version).toBe(3);
    expect(p.engine.getSnapshot().playback).toMatchObject({ postId: "p1", playing: true });
    answer.resolve({ ok: false, error: "Someone else is hosting now" });
    await play;
    expect(p.engine.getSnapshot().playback).toMatchObject({ postId: "p2", playing: false, version: 4 });
  });

  test("on an ended session, a change is not sent and says so", async () => {
    const p = await started(page("host", { session: { ...paused, ended_at: iso(t0) } }));
    expect(await p.engine.getSnapshot().actions.play()).toBe(false);
    expect(p.count("setPlayback")).toBe(0);
    expect(p.engine.getSnapshot().error).toBe("This session has ended");
  });
});

describe("presence and the page's lifetime", () => {
  test("the page marks itself here in its session, tells presence after a mark that took, and marks again when it stops following or the channel's state changes", async () => {
    const p = await started(page("bo"));
    expect(p.calls.filter((call) => call.name === "markHere").map((call) => call.args)).toEqual([
      ["tab-of-bo", { sessionId: "s1", following: true }],
    ]);
    expect(p.presence.map((meta) => meta.user_id)).toEqual(["bo"]);
    p.engine.getSnapshot().actions.listenAlone();
    p.channel().onStatus("live");
    await vi.advanceTimersByTimeAsync(0);
    expect(p.calls.filter((call) => call.name === "markHere").map((call) => call.args[1])).toEqual([
      { sessionId: "s1", following: true },
      { sessionId: "s1", following: false },
      { sessionId: "s1", following: false },
    ]);
    expect(p.engine.getSnapshot().listeningTo).toBe("p1");
  });

  test("one mark at a time: a mark sent before the session started cannot land after the one sent in it", async () => {
    // The network answers the newest request first, as two requests on their way together may; the
    // database's row keeps what landed last.
    const p = page("host", { session: null });
    const inFlight: (() => void)[] = [];
    const landed: (string | null | undefined)[] = [];
    p.replies.markHere = (mark) => new Promise((resolve) => inFlight.push(() => (landed.push(mark.sessionId), resolve(Date.now()))));
    await started(p);
    expect(inFlight).toHaveLength(1); // the page's first mark, in no session, is on its way
    expect(await p.engine.getSnapshot().actions.start()).toBe(true);
    await settle();
    while (inFlight.length) {
      inFlight.pop()!();
      await settle();
    }
    expect(p.calls.filter((call) => call.name === "markHere").map((call) => (call.args[1] as Mark).sessionId)).toEqual([null, "s2"]);
    expect(landed).toEqual([null, "s2"]);
  });

  test("a page that stops while its mark is on its way leaves after the mark lands, so its row does not come back", async () => {
    const p = page("bo");
    const inFlight: (() => void)[] = [];
    p.replies.markHere = () => new Promise((resolve) => inFlight.push(() => resolve(Date.now())));
    await started(p);
    p.engine.stop();
    expect(p.count("leaveHere")).toBe(0);
    inFlight.pop()!();
    await settle();
    expect(p.calls.at(-1)).toEqual({ name: "leaveHere", args: ["tab-of-bo"] });
    expect(p.count("leaveHere")).toBe(1);
  });

  test("once its clients load, the page fetches what it missed, then samples the server's clock, then marks itself here", async () => {
    const p = await started(page("bo"));
    expect(p.calls.slice(0, 3).map((call) => call.name)).toEqual(["fetchSession", "serverClockMs", "markHere"]);
  });

  test("a session ended while the page was away: the page reads how it ended", async () => {
    const p = page("bo");
    p.server.session = { ...sessionRow(), ended_at: iso(t0), version: 2 };
    await started(p);
    expect(p.calls.map((call) => call.name).filter((name) => name === "fetchSession" || name === "readSession")).toEqual([
      "fetchSession",
      "readSession",
    ]);
    expect(p.engine.getSnapshot()).toMatchObject({ session: null, ended: true, queue: [] });
  });

  test("a stopped engine sends nothing more: no beats, marks, reads, clock samples or claims; it leaves once and closes its channel", async () => {
    const p = await started(page("host"));
    await p.live([hereRow("host", t0), hereRow("bo", t0)]);
    await vi.advanceTimersByTimeAsync(3_000);
    p.engine.stop();
    const sent = p.calls.length;
    expect(p.calls.at(-1)).toEqual({ name: "leaveHere", args: ["tab-of-host"] });
    expect(p.closed()).toBe(1);
    // What the channel may still deliver changes nothing that sends.
    p.channel().onSession(sessionRow({ host_id: null, version: 9 }));
    p.channel().onStatus("reconnecting");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(p.calls.slice(sent)).toEqual([]);
  });

  test("stopped before its clients have loaded, the page leaves no one's row; started again, it connects", async () => {
    const p = page("bo");
    p.engine.start();
    p.engine.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.calls).toEqual([]);
    p.engine.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.count("markHere")).toBe(1);
    expect(p.count("leaveHere")).toBe(0);
  });
});

describe("the ready check's part (lib/sessions/ready-check.ts)", () => {
  test("ready marks heard on the channel reach whoever watches them, until they stop; load puts a post paused at its start", async () => {
    const p = await started(page("host", { session: sessionRow({ host_id: "host", post_id: "p1", playing: true, position_seconds: 42 }) }));
    const heard: unknown[] = [];
    const unwatch = p.engine.getSnapshot().watchReady((mark) => heard.push(mark));
    const mark = { userId: "bea", postId: "p2", positionSeconds: 0, readyAt: t0 };
    p.channel().onReady?.(mark);
    expect(heard).toEqual([mark]);
    unwatch();
    p.channel().onReady?.(mark);
    expect(heard).toHaveLength(1);

    expect(await p.engine.getSnapshot().actions.load("p2")).toBe(true);
    expect(p.calls.find((call) => call.name === "setPlayback")?.args[0]).toMatchObject({
      postId: "p2",
      positionSeconds: 0,
      playing: false,
    });
    expect(p.engine.getSnapshot().playback).toMatchObject({ postId: "p2", positionSeconds: 0, playing: false });
  });
});

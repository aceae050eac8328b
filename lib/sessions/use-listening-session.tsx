"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { SessionEngine } from "./engine";
import type { ListeningSessionActions, ListeningSessionSetup, ListeningSessionValue, SessionSnapshot } from "./engine-api";
import { browserEngineDeps } from "./engine-browser";
import { RenderGate } from "./render-gate";

export type { ListenerSelf, ListeningSessionActions, ListeningSessionSetup, ListeningSessionValue } from "./engine-api";

const ListeningSessionContext = createContext<ListeningSessionValue | null>(null);

/** The session page's session (inside <ListeningSessionProvider>). */
export function useListeningSession(): ListeningSessionValue {
  const value = useContext(ListeningSessionContext);
  if (!value) throw new Error("useListeningSession needs <ListeningSessionProvider>");
  return value;
}

/**
 * The engine's changes as they happen, before React has rendered them: for what must act within the
 * same moment, as the player starting the next post it holds ready (components/sessions/session-player.tsx).
 */
export interface SessionFeed {
  subscribe(listener: () => void): () => void;
  snapshot(): SessionSnapshot;
  /** Holds the page's render of changes until the answer is called (or `maxMs`): a player just started goes first (./render-gate.ts). */
  holdRender(maxMs: number): () => void;
}

const SessionFeedContext = createContext<SessionFeed | null>(null);

/** The session's changes as they happen (null outside a provider). */
export function useSessionFeed(): SessionFeed | null {
  return useContext(SessionFeedContext);
}

/** Runs the session engine for the page (one per page, room and person) and gives it to everything inside. */
export function ListeningSessionProvider({ setup, children }: { setup: ListeningSessionSetup; children: ReactNode }) {
  return (
    <SessionEngineProvider key={`${setup.room.id}:${setup.self.user_id}`} setup={setup}>
      {children}
    </SessionEngineProvider>
  );
}

/**
 * Everything inside reads the session with some of its actions in place of the engine's (the host's
 * ready check, components/sessions/ready-check.tsx, puts play and the moves to a new track through
 * its check, whichever control or shortcut asks). `actions` should keep its identity.
 */
export function WithSessionActions({ actions, children }: { actions: Partial<ListeningSessionActions>; children: ReactNode }) {
  const outer = useListeningSession();
  const value = useMemo<ListeningSessionValue>(() => ({ ...outer, actions: { ...outer.actions, ...actions } }), [outer, actions]);
  return <ListeningSessionContext.Provider value={value}>{children}</ListeningSessionContext.Provider>;
}

function SessionEngineProvider({ setup, children }: { setup: ListeningSessionSetup; children: ReactNode }) {
  // The engine (./engine.ts) holds the session; this component only reads it. `setup.initial` and
  // `setup.durations` are where it starts; the room, the person and what they may do follow the props.
  const [engine] = useState(() => new SessionEngine(setup, browserEngineDeps(setup.room.id, setup.self.user_id)));
  useEffect(() => {
    engine.start();
    return () => engine.stop();
  }, [engine]);
  const [gate] = useState(() => new RenderGate());
  const subscribe = useCallback((listener: () => void) => engine.subscribe(gate.pass(listener)), [engine, gate]);
  const snapshot = useSyncExternalStore(subscribe, engine.getSnapshot, engine.getSnapshot);
  const feed = useMemo<SessionFeed>(
    () => ({ subscribe: engine.subscribe, snapshot: engine.getSnapshot, holdRender: (maxMs) => gate.hold(maxMs) }),
    [engine, gate],
  );
  const { room, self, canStart } = setup;
  const value = useMemo<ListeningSessionValue>(
    () => ({ ...snapshot, room, self, canStart, canEnd: snapshot.isHost || self.role === "owner" || self.role === "moderator" }),
    [snapshot, room, self, canStart],
  );
  return (
    <SessionFeedContext.Provider value={feed}>
      <ListeningSessionContext.Provider value={value}>{children}</ListeningSessionContext.Provider>
    </SessionFeedContext.Provider>
  );
}

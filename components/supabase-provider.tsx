"use client";

import type { ReactNode } from "react";
import type { BrowserAuth } from "@/lib/supabase/client";
import type { BrowserData } from "@/lib/supabase/data-client";
import { SessionEvents } from "./auth/session-events";

export type { BrowserAuth, BrowserData };

let auth: Promise<BrowserAuth> | null = null;
let data: Promise<BrowserData> | null = null;
let loadedData: BrowserData | null = null;
const onAuthLoad: ((auth: BrowserAuth) => void)[] = [];

/** Forgets a failed chunk load (offline) so that the next call retries it. */
function retryable<T>(promise: Promise<T>, forget: () => void): Promise<T> {
  return promise.catch((error: unknown) => {
    forget();
    throw error;
  });
}

/**
 * The page's one browser Auth client (the session), loaded on first use: signed-in pages load it
 * right away (session events, token refresh, other tabs); signed-out pages only when the person
 * submits a form, so it stays out of their first-load JavaScript.
 */
export function loadSupabaseAuth(): Promise<BrowserAuth> {
  if (!auth) {
    auth = retryable(
      import("@/lib/supabase/client").then(({ createAuthClient }) => createAuthClient()),
      () => (auth = null),
    );
    // Listeners waiting for the client attach before any caller can use it (promise reactions run in order).
    for (const listener of onAuthLoad.splice(0)) void auth.then(listener);
  }
  return auth;
}

/** Runs `listener` with the Auth client as soon as something loads it (now, if it already has). */
export function whenSupabaseAuthLoads(listener: (auth: BrowserAuth) => void): () => void {
  if (auth) {
    void auth.then(listener);
    return () => {};
  }
  onAuthLoad.push(listener);
  return () => {
    const index = onAuthLoad.indexOf(listener);
    if (index >= 0) onAuthLoad.splice(index, 1);
  };
}

/**
 * The browser data client (REST, Storage, Realtime, Functions) for code that queries or listens
 * in the browser, loaded on first use; it uses the Auth client's session.
 */
export function loadSupabaseData(): Promise<BrowserData> {
  if (!data) {
    data = retryable(
      Promise.all([loadSupabaseAuth(), import("@/lib/supabase/data-client")]).then(([session, { createDataClient }]) => (loadedData = createDataClient(session))),
      () => (data = null),
    );
  }
  return data;
}

/** The data client if something has loaded it (session events act on its realtime channels). */
export function supabaseDataIfLoaded(): BrowserData | null {
  return loadedData;
}

/** Session events for the whole app; the clients themselves load on demand (see above). */
export function SupabaseProvider({ serverUserId, children }: { serverUserId: string | null; children: ReactNode }) {
  return (
    <>
      <SessionEvents serverUserId={serverUserId} />
      {children}
    </>
  );
}

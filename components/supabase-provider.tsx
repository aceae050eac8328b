"use client";

import type { SupabaseClient } from "@supabase/supabase-js";
import type { ReactNode } from "react";
import type { Database } from "@/types/database";
import { SessionEvents } from "./auth/session-events";

export type BrowserSupabase = SupabaseClient<Database>;

let client: Promise<BrowserSupabase> | null = null;
const onLoad: ((supabase: BrowserSupabase) => void)[] = [];

/**
 * The page's one browser Supabase client, loaded on first use: signed-in pages load it right away
 * (session events, token refresh); signed-out pages only when the person submits a form, so
 * supabase-js stays out of their first-load JavaScript.
 */
export function loadSupabase(): Promise<BrowserSupabase> {
  if (!client) {
    client = import("@/lib/supabase/client").then(
      ({ createClient }) => createClient(),
      (error: unknown) => {
        client = null; // a failed chunk load (offline) may be retried
        throw error;
      },
    );
    // Listeners waiting for the client attach before any caller can use it (promise reactions run in order).
    for (const listener of onLoad.splice(0)) void client.then(listener);
  }
  return client;
}

/** Runs `listener` with the client as soon as something loads it (now, if it already has). */
export function whenSupabaseLoads(listener: (supabase: BrowserSupabase) => void): () => void {
  if (client) {
    void client.then(listener);
    return () => {};
  }
  onLoad.push(listener);
  return () => {
    const index = onLoad.indexOf(listener);
    if (index >= 0) onLoad.splice(index, 1);
  };
}

/** Session events for the whole app; the client itself loads on demand (see loadSupabase). */
export function SupabaseProvider({ serverUserId, children }: { serverUserId: string | null; children: ReactNode }) {
  return (
    <>
      <SessionEvents serverUserId={serverUserId} />
      {children}
    </>
  );
}

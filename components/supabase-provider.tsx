"use client";

import type { ReactNode } from "react";
import { SessionEvents } from "./auth/session-events";

/** Session events for the whole app; the client itself loads on demand (see loadSupabase). */
export function SupabaseProvider({ serverUserId, children }: { serverUserId: string | null; children: ReactNode }) {
  return (
    <>
      <SessionEvents serverUserId={serverUserId} />
      {children}
    </>
  );
}

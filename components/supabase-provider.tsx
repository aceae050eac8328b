"use client";

import type { SupabaseClient } from "@supabase/supabase-js";
import { createContext, type ReactNode, useContext, useState } from "react";
import { createClient } from "@/lib/supabase/client";
import type { Database } from "@/types/database";
import { SessionEvents } from "./auth/session-events";

const SupabaseContext = createContext<SupabaseClient<Database> | null>(null);

/** One browser Supabase client for the page, and the listener that acts on session events. */
export function SupabaseProvider({ serverUserId, children }: { serverUserId: string | null; children: ReactNode }) {
  const [supabase] = useState(() => createClient());
  return (
    <SupabaseContext.Provider value={supabase}>
      <SessionEvents supabase={supabase} serverUserId={serverUserId} />
      {children}
    </SupabaseContext.Provider>
  );
}

export function useSupabase(): SupabaseClient<Database> {
  const supabase = useContext(SupabaseContext);
  if (!supabase) throw new Error("useSupabase must be used inside <SupabaseProvider>");
  return supabase;
}

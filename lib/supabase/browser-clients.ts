import type { BrowserAuth } from "@/lib/supabase/client";
import type { BrowserData } from "@/lib/supabase/data-client";
import type { LiveClient } from "@/lib/supabase/live-client";
import type { currentAccessToken as CurrentAccessToken } from "@/lib/supabase/access-token";
import { nextTask } from "@/lib/next-task";
import { publicConfig } from "@/lib/public-config";
import { sessionStorageKey } from "@/lib/supabase/session-key";

/** The browser session: `supabase.auth` as in supabase-js, without the data client's weight. */
export type BrowserSupabase = { auth: BrowserAuth };
export type { BrowserData, LiveClient };

let client: Promise<BrowserSupabase> | null = null;
let data: Promise<BrowserData> | null = null;
let live: Promise<LiveClient> | null = null;
let loadedLive: LiveClient | null = null;
const onLoad: ((supabase: BrowserSupabase) => void)[] = [];

/**
 * The page's one browser session client, loaded on first use: signed-in pages load it when the token
 * is due for refresh, when the cookies hold no session, or when the page uses it (see
 * lib/supabase/deferred-session.ts, which hears other tabs until then); signed-out pages only when the
 * person submits a form, so it stays out of their first-load JavaScript.
 */
export function loadSupabase(): Promise<BrowserSupabase> {
  if (!client) {
    client = import("@/lib/supabase/client").then(
      async ({ createClient }) => {
        await nextTask();
        return { auth: createClient() };
      },
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

/**
 * The access token the page's data and live clients send (see lib/supabase/access-token.ts): a
 * visitor's page (no session in the cookies) does not load the session client for it, nor does a
 * signed-in page whose token is not yet due.
 */
const accessTokenFrom = (currentAccessToken: typeof CurrentAccessToken) => {
  const session = { loaded: () => client !== null, load: async () => (await loadSupabase()).auth };
  return () => currentAccessToken(sessionStorageKey(publicConfig.supabaseUrl), session);
};

/** The access token the page's data and live clients would send now, for a request made without them. */
export async function loadAccessToken(): Promise<string | null> {
  const { currentAccessToken } = await import("@/lib/supabase/access-token");
  return accessTokenFrom(currentAccessToken)();
}

/**
 * REST, Storage and Functions in the browser (lib/supabase/data-client.ts), loaded on first use, on
 * the session client's session: only pages that query in the browser pay for it, when they first do.
 */
export function loadSupabaseData(): Promise<BrowserData> {
  if (!data) {
    data = Promise.all([import("@/lib/supabase/data-client"), import("@/lib/supabase/access-token")]).then(
      async ([{ createDataClient }, { currentAccessToken }]) => {
        await nextTask();
        const created = createDataClient(accessTokenFrom(currentAccessToken));
        await nextTask(); // the pages' own work with it (fetching) in another task
        return created;
      },
      (error: unknown) => {
        data = null;
        throw error;
      },
    );
  }
  return data;
}

/**
 * Realtime in the browser (realtime-js alone), loaded on first use, on the session client's
 * session: the live pages join their channels with it without loading the rest of supabase-js.
 */
export function loadLiveClient(): Promise<LiveClient> {
  if (!live) {
    // Not in the task that asked (a page's effects, which start other loads too: lib/next-task.ts).
    live = nextTask()
      .then(() => import("@/lib/realtime/live-runtime"))
      .then(
        async ({ createLiveClient, currentAccessToken }) => {
          await nextTask();
          loadedLive = createLiveClient(accessTokenFrom(currentAccessToken));
          await nextTask(); // the pages' own work with it (joining channels) in another task
          return loadedLive;
        },
        (error: unknown) => {
          live = null;
          throw error;
        },
      );
  }
  return live;
}

/** The live client if a page has loaded it (session events act on its channels). */
export function liveClientIfLoaded(): LiveClient | null {
  return loadedLive;
}

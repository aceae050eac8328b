import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import { loadSupabase, whenSupabaseLoads } from "@/lib/supabase/browser-clients";
import { nextTask } from "@/lib/next-task";
import { publicConfig } from "@/lib/public-config";
import { sessionStorageKey, tokenRefreshMarginMs } from "@/lib/supabase/session-key";

type SessionEvent = (event: AuthChangeEvent, session: Session | null) => void;

/**
 * Stands in for the session client on a signed-in page until the client loads, so the page does
 * not run the client's code while it starts. What the client would do meanwhile is done here:
 * - Other tabs' session events (the client relays them on a BroadcastChannel named after the storage
 *   key) go to `onOtherTabEvent`, as the client hands them to its subscribers. The channel stays
 *   open until the client has loaded and `onOtherTabEvent`'s listener is subscribed to it (both in
 *   the same microtask run, see loadSupabase), so no event falls between the two.
 * - The client is loaded when it has work: when the access token comes within `tokenRefreshMarginMs`
 *   of expiring (re-read after each other-tab event and whenever the tab is shown, as background
 *   timers are throttled), or at once when the cookies hold no session, as after a sign-out this
 *   page did not hear (sent before it listened): the client's INITIAL_SESSION then reports it.
 * Returns a function that stops watching.
 */
export function deferSessionClient(onOtherTabEvent: SessionEvent): () => void {
  const storageKey = sessionStorageKey(publicConfig.supabaseUrl);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(storageKey) : null;
  const stop = () => {
    done = true;
    clearTimeout(timer);
    channel?.close();
    document.removeEventListener("visibilitychange", onVisible);
  };
  const load = () => {
    clearTimeout(timer);
    // The chunk may fail to load (offline): keep listening; the next check tries again.
    loadSupabase().catch(() => {});
  };
  const check = async () => {
    let expiresAt: number | null;
    try {
      // The cookie reader (with @supabase/ssr's chunk decoding) stays out of signed-out pages' first load.
      const { storedSession } = await import("@/lib/supabase/access-token");
      expiresAt = (await storedSession(storageKey))?.expiresAt ?? null;
    } catch {
      return; // the chunk did not load (offline): try again when the tab is shown
    }
    if (done) return;
    clearTimeout(timer);
    if (expiresAt === null) return load();
    timer = setTimeout(load, Math.max(0, expiresAt * 1000 - tokenRefreshMarginMs - Date.now()));
  };
  function onVisible() {
    if (document.visibilityState === "visible") void check();
  }
  channel?.addEventListener("message", (message: MessageEvent<{ event: AuthChangeEvent; session: Session | null }>) => {
    if (done) return;
    onOtherTabEvent(message.data.event, message.data.session);
    if (message.data.event !== "SIGNED_OUT") void check(); // a refresh or sign-in elsewhere moved the expiry
  });
  document.addEventListener("visibilitychange", onVisible);
  const stopOnLoad = whenSupabaseLoads(stop); // after the page's listener (registered first) has subscribed
  // Not in the task that mounts the page: its effects start other loads too (see lib/next-task.ts).
  void nextTask().then(() => {
    if (!done) void check();
  });
  return () => {
    stopOnLoad();
    stop();
  };
}

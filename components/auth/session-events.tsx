"use client";

import { usePathname, useRouter } from "next/navigation";
import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import { useEffect, useEffectEvent, useRef } from "react";
import { type BrowserSupabase, loadSupabase, supabaseDataIfLoaded, whenSupabaseLoads } from "@/components/supabase-provider";
import { isAuthPage, safeNextPath } from "@/lib/auth/redirect";
import { publicConfig } from "@/lib/public-config";
import { sessionStorageKey } from "@/lib/supabase/session-key";

/** The session client refreshes a token that expires within three of its 30 s ticks; load it a little before. */
const loadBeforeExpiryMs = 120_000;

/**
 * Loads the session client once it has work: when the stored access token comes within
 * `loadBeforeExpiryMs` of expiring (checked again whenever the tab is shown, as background timers
 * are throttled), right away when the cookies hold no readable session (so its INITIAL_SESSION
 * event can correct the page), and when another tab's client relays a session event on the
 * storage key's channel — that event is handled here too, since the client was not yet listening.
 * Returns a function that stops waiting.
 */
function loadWhenDue(onOtherTabEvent: (event: AuthChangeEvent, session: Session | null) => void): () => void {
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
    if (done) return;
    stop();
    void loadSupabase();
  };
  const schedule = async () => {
    let expiresAt: number | null;
    try {
      // The cookie reader (with @supabase/ssr's chunk decoding) stays out of signed-out pages' first load.
      const { storedSessionExpiry } = await import("@/lib/supabase/cookie-storage");
      expiresAt = await storedSessionExpiry(storageKey);
    } catch {
      return; // the chunk did not load (offline): try again when the tab is shown
    }
    if (done) return;
    clearTimeout(timer);
    if (expiresAt === null) return load();
    timer = setTimeout(load, Math.max(0, expiresAt * 1000 - loadBeforeExpiryMs - Date.now()));
  };
  function onVisible() {
    if (document.visibilityState === "visible") void schedule();
  }
  channel?.addEventListener("message", (message: MessageEvent<{ event: AuthChangeEvent; session: Session | null }>) => {
    if (done) return;
    load();
    onOtherTabEvent(message.data.event, message.data.session);
  });
  document.addEventListener("visibilitychange", onVisible);
  const stopOnLoad = whenSupabaseLoads(stop); // a form or a page's data loaded it first
  void schedule();
  return () => {
    stopOnLoad();
    stop();
  };
}

/**
 * What the product does on each session event (docs/product.md, "Accounts and sessions").
 * The session client also relays these events to the app's other tabs, so signing out in one tab
 * signs out the others; Realtime channels live on the data client, when a page has loaded one. Handlers never await Supabase calls inside the callback (that can
 * deadlock the auth lock); navigation and refresh are enough.
 */
export function SessionEvents({ serverUserId }: { serverUserId: string | null }) {
  const router = useRouter();
  const pathname = usePathname();
  // The user the page was rendered for; SIGNED_IN moves it ahead until the refreshed render arrives.
  const renderedUser = useRef(serverUserId);
  useEffect(() => {
    renderedUser.current = serverUserId;
  }, [serverUserId]);

  // Sees the latest pathname and router without resubscribing on every navigation.
  const onAuthEvent = useEffectEvent((event: AuthChangeEvent, session: Session | null) => {
    const userId = session?.user.id ?? null;
    switch (event) {
      case "INITIAL_SESSION":
        // The server rendered the chrome from the same cookies; refresh only if they disagree.
        if (userId !== renderedUser.current) router.refresh();
        break;
      case "SIGNED_IN":
        if (userId === renderedUser.current) break;
        renderedUser.current = userId;
        if (isAuthPage(pathname)) {
          router.replace(safeNextPath(new URLSearchParams(window.location.search).get("next")));
        }
        router.refresh();
        break;
      case "SIGNED_OUT":
        renderedUser.current = null;
        void supabaseDataIfLoaded()?.removeAllChannels();
        // A full load of /, not router.replace + refresh: the refresh re-renders the page being left
        // (e.g. /account, which then redirects to /login?next=…) and can win the race with the
        // navigation; a document load also drops every client cache and channel at once.
        window.location.replace("/");
        break;
      case "TOKEN_REFRESHED":
        if (session) void supabaseDataIfLoaded()?.realtime.setAuth(session.access_token);
        break;
      case "USER_UPDATED":
        router.refresh();
        break;
      case "PASSWORD_RECOVERY":
        router.push("/account/password");
        break;
    }
  });

  // Signed out: listen from whenever a form loads the client. Signed in: load it when it has work
  // (the access token is due for refresh, another tab relays a session event, the page uses it), not
  // with the page: it is the largest script a signed-in page would otherwise run while it starts.
  const signedIn = serverUserId !== null;
  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    const listen = (supabase: BrowserSupabase) => {
      if (!active) return;
      const { data } = supabase.auth.onAuthStateChange((event, session) => onAuthEvent(event, session));
      unsubscribe = () => data.subscription.unsubscribe();
    };
    const stopWaiting = whenSupabaseLoads(listen);
    const stopDeferring = signedIn ? loadWhenDue((event, session) => onAuthEvent(event, session)) : () => {};
    return () => {
      active = false;
      stopWaiting();
      stopDeferring();
      unsubscribe();
    };
  }, [signedIn]);

  return null;
}

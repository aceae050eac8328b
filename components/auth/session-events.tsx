"use client";

import { usePathname, useRouter } from "next/navigation";
import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import { useEffect, useEffectEvent, useRef } from "react";
import { type BrowserSupabase, liveClientIfLoaded, whenSupabaseLoads } from "@/lib/supabase/browser-clients";
import { deferSessionClient } from "@/lib/supabase/deferred-session";
import { afterSignInPath, isAuthPage } from "@/lib/auth/redirect";

/**
 * What the product does on each session event (docs/product.md, "Accounts and sessions").
 * The session client also relays these events to the app's other tabs, so signing out in one tab
 * signs out the others; Realtime channels live on the live client, when a page has loaded one. Handlers never await Supabase calls inside the callback (that can
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

  const leave = () => {
    renderedUser.current = null;
    void liveClientIfLoaded()?.removeAllChannels();
    // A full load of /, not router.replace + refresh: the refresh re-renders the page being left
    // (e.g. /account, which then redirects to /login?next=…) and can win the race with the
    // navigation; a document load also drops every client cache and channel at once.
    window.location.replace("/");
  };

  // Sees the latest pathname and router without resubscribing on every navigation.
  const onAuthEvent = useEffectEvent((event: AuthChangeEvent, session: Session | null) => {
    const userId = session?.user.id ?? null;
    switch (event) {
      case "INITIAL_SESSION":
        // The server rendered the chrome from the same cookies; refresh only if they disagree. A page
        // rendered signed in that finds no session was signed out before it could hear it (another
        // tab's SIGNED_OUT was sent before this page listened): it leaves as on SIGNED_OUT.
        if (userId === renderedUser.current) break;
        if (userId === null) leave();
        else router.refresh();
        break;
      case "SIGNED_IN":
        if (userId === renderedUser.current) break;
        renderedUser.current = userId;
        if (isAuthPage(pathname) && session) {
          router.replace(afterSignInPath(session.user, new URLSearchParams(window.location.search).get("next")));
        }
        router.refresh();
        break;
      case "SIGNED_OUT":
        leave();
        break;
      case "TOKEN_REFRESHED":
        if (session) void liveClientIfLoaded()?.setAuth(session.access_token);
        break;
      case "USER_UPDATED":
        router.refresh();
        break;
      case "PASSWORD_RECOVERY":
        router.push("/account/password");
        break;
    }
  });

  // Listen from whenever the client loads: signed out, when a form needs it; signed in, when it has
  // work (see deferSessionClient, which hears other tabs until then), not with the page: it is the
  // largest script a signed-in page would otherwise run while it starts.
  const signedIn = serverUserId !== null;
  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    const listen = (supabase: BrowserSupabase) => {
      if (!active) return;
      const { data } = supabase.auth.onAuthStateChange((event, session) => onAuthEvent(event, session));
      unsubscribe = () => data.subscription.unsubscribe();
    };
    // `listen` is registered first, so it subscribes before the stand-in stops hearing other tabs.
    const stopWaiting = whenSupabaseLoads(listen);
    const stopDeferring = signedIn ? deferSessionClient((event, session) => onAuthEvent(event, session)) : () => {};
    return () => {
      active = false;
      stopWaiting();
      stopDeferring();
      unsubscribe();
    };
  }, [signedIn]);

  return null;
}

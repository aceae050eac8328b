"use client";

import { lazyComponent } from "@/components/lazy";

// Parts of a room page each in a chunk of its own, so a room's first load leaves them out: those only
// signed-in people are shown, and who is here now (live, so it waits for the live connection anyway). Each is a button or a link, so one pressed before
// its chunk has loaded still works (a form posting to its server action); forms people type into
// stay in the page's own chunk: what was typed into one before its chunk arrived was lost (seen in e2e).

/** Join / Leave (signed in). */
export const LazyMembershipForm = lazyComponent(() => import("./membership-form").then((module) => module.MembershipForm));
/** "Listening together now — Join" (members, while a session is on). */
export const LazySessionBanner = lazyComponent(() => import("@/components/sessions/session-banner").then((module) => module.SessionBanner));
/** "Start listening together" (members who may start one). */
export const LazyStartSessionForm = lazyComponent(() =>
  import("@/components/sessions/start-session-form").then((module) => module.StartSessionForm),
);

/**
 * Who is here now, in the room's header (everyone). It shows only once the room's live connection
 * is up, which is loaded after the page too, so its chunk waits with it.
 */
export const LazyHereNowAvatars = lazyComponent(() => import("./here-now-avatars").then((module) => module.HereNowAvatars));

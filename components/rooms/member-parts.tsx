"use client";

import { lazyComponent } from "@/components/lazy";

// The parts of a room page that only signed-in people are shown, each in a chunk of its own, so a
// visitor's first load of a room leaves them out.

/** Join / Leave (signed in). */
export const LazyMembershipForm = lazyComponent(() => import("./membership-form").then((module) => module.MembershipForm));
/** The link and upload forms (members). */
export const LazyPostComposer = lazyComponent(() => import("@/components/posts/post-composer").then((module) => module.PostComposer));
/** "Listening together now — Join" (members, while a session is on). */
export const LazySessionBanner = lazyComponent(() => import("@/components/sessions/session-banner").then((module) => module.SessionBanner));
/** "Start listening together" (members who may start one). */
export const LazyStartSessionForm = lazyComponent(() => import("@/components/sessions/start-session-form").then((module) => module.StartSessionForm));

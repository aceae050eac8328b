"use client";

import { lazyComponent } from "@/components/lazy";

// The notification parts only signed-in people see, each in a chunk of its own, so that a page's
// first load (the header is on every page) leaves them out for everyone else. Both render on the
// server as usual; the browser fetches their code only where they are shown.

/** The header's bell (signed in): the server's HTML stays in place until its chunk arrives. */
export const LazyBellLink = lazyComponent(() => import("./bell-link").then((module) => module.BellLink));

/** "Mute notifications from this room" / "Mute this thread" (signed-in readers). */
export const LazyMuteToggle = lazyComponent(() => import("./mute-toggle").then((module) => module.MuteToggle));

import type { Metadata } from "next";
import { buttonClasses } from "@/components/ui/button";

export const metadata: Metadata = { title: "You're offline", robots: { index: false } };

// What the service worker (public/sw.js) shows when a page can't be reached: it keeps a copy of this
// page, fetched without cookies, so it holds nothing of anyone's account. It reads no data and is drawn
// without the site's header (proxy.ts), whose search, bell and menu need the network.
export default function Offline() {
  return (
    <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16 sm:py-24">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-10 w-10 text-accent">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M9 22V10l9 6-9 6zm11-12h3v12h-3z" fill="var(--color-raised)" />
      </svg>
      <h1 className="text-2xl font-semibold tracking-tight">You&apos;re offline</h1>
      <p className="text-muted">
        Cuepoint can&apos;t reach the internet right now, so this page couldn&apos;t load. Rooms, posts, comments and listening sessions all
        need a connection.
      </p>
      <p className="text-muted">
        Pages you already have open in other tabs stay as they are, and a player keeps playing what it has already loaded. Once you&apos;re
        back online, try again.
      </p>
      <div>
        {/* The worker shows this page at the address that failed, so an empty href loads that address again (no script needed). */}
        <a href="" className={buttonClasses("primary", "min-h-11")}>
          Try again
        </a>
      </div>
    </main>
  );
}

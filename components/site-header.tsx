import Link from "next/link";
import { Avatar } from "@/components/avatar";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { NotificationBell } from "@/components/notifications/bell";
import { buttonClasses } from "@/components/ui/button";
import type { CurrentUser } from "@/lib/auth/current-user";
import { personName } from "@/lib/people/names";

export function SiteHeader({ user }: { user: CurrentUser | null }) {
  const { name, secondary } = user?.profile ? personName(user.profile) : { name: user?.email ?? "Account", secondary: null };
  return (
    <header className="border-b border-line bg-raised/80 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-raised focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-5xl items-center gap-2 px-4 sm:gap-3">
        <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-accent">
          <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M9 22V10l9 6-9 6zm11-12h3v12h-3z" fill="var(--color-raised)" />
          </svg>
          {/* On the narrowest phones the mark alone stands for the name, so "Your rooms" fits beside it. */}
          <span className={user ? "max-[400px]:sr-only" : undefined}>Cuepoint</span>
        </Link>
        {/* Signed in, your rooms lead the home page; signed out, the directory does. */}
        <Link
          href={user ? "/#your-rooms" : "/#rooms"}
          className="inline-flex min-h-11 items-center whitespace-nowrap rounded-md px-2 text-sm text-muted hover:text-ink"
        >
          {user ? "Your rooms" : "Rooms"}
        </Link>
        {/* Search the rooms from anywhere: the home page's directory answers (Enter sends it). Phones get a link to that search. */}
        <form role="search" action="/#rooms" method="get" aria-label="Site search" className="ml-auto hidden md:block">
          <input
            name="q"
            type="search"
            aria-label="Search rooms"
            placeholder="Search rooms"
            maxLength={80}
            className="h-10 w-48 rounded-lg border border-line bg-surface px-3 text-sm text-ink placeholder:text-muted/70 lg:w-64"
          />
        </form>
        <Link
          href="/#room-search"
          aria-label="Search rooms"
          className="ml-auto inline-flex h-11 w-11 items-center justify-center rounded-md text-muted hover:text-ink md:hidden"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="9" cy="9" r="6" />
            <path d="m14 14 4 4" strokeLinecap="round" />
          </svg>
        </Link>
        {/* The bell takes its place on the narrowest phones (360 px) by closer spacing here. */}
        <div className="flex items-center gap-1 sm:gap-2">
          {user ? (
            <>
              <NotificationBell userId={user.id} />
              <Link
                href="/account"
                className="flex items-center gap-2 rounded-full p-1 text-sm hover:bg-line/60 sm:pr-3"
                aria-label={`Your account (${name})`}
              >
                <Avatar path={user.profile?.avatar_path} name={name} size={28} />
                <span className="hidden max-w-40 flex-col leading-tight sm:flex">
                  <span className="truncate">{name}</span>
                  {secondary ? <span className="truncate text-xs text-muted">{secondary}</span> : null}
                </span>
              </Link>
              <SignOutButton variant="ghost" />
            </>
          ) : (
            <>
              <Link href="/login" className={buttonClasses("ghost")}>
                Sign in
              </Link>
              {/* Phones keep one sign-in entry in the header; the sign-in page and the home page offer sign-up. */}
              <Link href="/signup" className={buttonClasses("primary", "max-sm:hidden")}>
                Sign up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import { LiveNow } from "@/components/home/live-now";
import { TopMoments } from "@/components/home/top-moments";
import { YourRooms } from "@/components/home/your-rooms";
import { RoomCard } from "@/components/rooms/room-card";
import { FoundItems } from "@/components/search/found-items";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getLiveNow, getMyRooms, getTopMoments } from "@/lib/home/queries";
import { listRooms } from "@/lib/rooms/queries";
import { searchContent } from "@/lib/search/queries";
import { createClient } from "@/lib/supabase/server";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/**
 * Home. Signed in: your rooms (live, here now, new since your last visit), then what is live in the
 * rooms you may read, then the directory. Signed out: what Cuepoint is, shown with what is live in
 * public rooms and the week's most-talked-about moments, then the directory. A search or an older
 * page of the directory shows the directory alone. Each part is one database function, read in parallel.
 */
export default async function HomePage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const search = first(params.q).slice(0, 80);
  const cursor = first(params.cursor);
  const foundCursor = first(params.after);
  const [user, supabase] = await Promise.all([getCurrentUser(), createClient()]);
  const searching = search.trim() !== "";
  const directoryOnly = searching || cursor !== "";
  const [result, found, myRooms, live, moments] = await Promise.all([
    listRooms(supabase, { search, cursor }),
    searching && !cursor ? searchContent(supabase, search, { cursor: foundCursor }) : null,
    user && !directoryOnly ? getMyRooms(supabase) : null,
    directoryOnly ? null : getLiveNow(supabase),
    user || directoryOnly ? null : getTopMoments(supabase),
  ]);
  const olderHref =
    result.ok && result.data.nextCursor
      ? `/?${new URLSearchParams({ ...(searching ? { q: search } : {}), cursor: result.data.nextCursor })}#rooms`
      : null;

  return (
    <main id="main" className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-8 sm:py-12">
      {user ? null : (
        <div className="flex flex-col gap-4">
          <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Cuepoint</h1>
          <p className="max-w-2xl text-lg text-muted">
            Share music and video with your community, and talk about the exact moments in them — live.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link href="/signup" className={buttonClasses("primary", "min-h-11")}>
              Create your account
            </Link>
            <Link href="/login" className={buttonClasses("secondary", "min-h-11")}>
              Sign in
            </Link>
          </div>
        </div>
      )}

      {myRooms ? (
        <HomeSection
          id="your-rooms"
          title="Your rooms"
          level={1}
          action={
            myRooms.ok && myRooms.data.length > 0 ? (
              <Link href="/rooms/new" className={buttonClasses("secondary", "min-h-11")}>
                Create a room
              </Link>
            ) : null
          }
        >
          {myRooms.ok ? <YourRooms rooms={myRooms.data} /> : <Alert tone="error">{myRooms.error}</Alert>}
        </HomeSection>
      ) : null}

      {live ? (
        <HomeSection
          id="live-now"
          title="Live now"
          description={user ? "Listening sessions in rooms you can read." : "Listening sessions in open rooms, happening right now."}
        >
          {live.ok ? <LiveNow sessions={live.data} signedIn={user !== null} /> : <Alert tone="error">{live.error}</Alert>}
        </HomeSection>
      ) : null}

      {moments ? (
        <HomeSection id="moments" title="This week's moments" description="Where people commented most this week, in open rooms.">
          {moments.ok ? <TopMoments moments={moments.data} /> : <Alert tone="error">{moments.error}</Alert>}
        </HomeSection>
      ) : null}

      <section aria-labelledby="rooms" className="flex flex-col gap-5">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            {user && directoryOnly ? (
              <h1 id="rooms" className="text-2xl font-semibold tracking-tight">
                Rooms
              </h1>
            ) : (
              <h2 id="rooms" className="text-2xl font-semibold tracking-tight">
                {user ? "Find a room" : "Rooms"}
              </h2>
            )}
            <p className="text-sm text-muted">Open rooms anyone can join, and rooms for holders of a token.</p>
          </div>
        </div>

        <form role="search" action="/" method="get" className="flex flex-wrap gap-2" aria-label="Search rooms">
          <label htmlFor="room-search" className="sr-only">
            Search rooms, posts and comments
          </label>
          <input
            id="room-search"
            name="q"
            type="search"
            defaultValue={search}
            placeholder="Search rooms, posts and comments"
            maxLength={80}
            className="min-w-0 flex-1 rounded-lg border border-line bg-raised px-3 py-2 text-base text-ink placeholder:text-muted/70"
          />
          <button type="submit" className={buttonClasses("secondary")}>
            Search
          </button>
        </form>

        {searching ? (
          <p className="text-sm text-muted" aria-live="polite">
            Rooms whose name contains “{search.trim()}”.{" "}
            <Link href="/#rooms" className={linkClasses}>
              Show all rooms
            </Link>
          </p>
        ) : null}

        {!result.ok ? (
          <Alert tone="error">{result.error.message}</Alert>
        ) : result.data.rooms.length === 0 ? (
          <EmptyDirectory searching={searching} search={search.trim()} signedIn={user !== null} firstPage={!cursor} />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {result.data.rooms.map((room) => (
              <li key={room.id}>
                <RoomCard room={room} />
              </li>
            ))}
          </ul>
        )}

        {olderHref || cursor ? (
          <nav aria-label="More rooms" className="flex flex-wrap gap-3">
            {cursor ? (
              <Link href={searching ? `/?${new URLSearchParams({ q: search })}#rooms` : "/#rooms"} className={buttonClasses("ghost")}>
                Newest rooms
              </Link>
            ) : null}
            {olderHref ? (
              <Link href={olderHref} className={buttonClasses("secondary")}>
                Older rooms
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      {found ? (
        <section aria-labelledby="found" className="flex scroll-mt-4 flex-col gap-4">
          <div>
            <h2 id="found" className="text-2xl font-semibold tracking-tight">
              Posts and comments
            </h2>
            <p className="text-sm text-muted">Best matches first, from the rooms you can read.</p>
          </div>
          {found.ok ? <FoundItems items={found.data.items} search={search.trim()} /> : <Alert tone="error">{found.error}</Alert>}
          {found.ok && (found.data.nextCursor || foundCursor) ? (
            <nav aria-label="More posts and comments" className="flex flex-wrap gap-3">
              {foundCursor ? (
                <Link href={`/?${new URLSearchParams({ q: search })}#found`} className={buttonClasses("ghost")}>
                  Best matches
                </Link>
              ) : null}
              {found.data.nextCursor ? (
                <Link
                  href={`/?${new URLSearchParams({ q: search, after: found.data.nextCursor })}#found`}
                  className={buttonClasses("secondary")}
                >
                  More posts and comments
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}

function HomeSection({
  id,
  title,
  level = 2,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  level?: 1 | 2;
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section aria-labelledby={id} className="flex scroll-mt-4 flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <Heading id={id} className="text-2xl font-semibold tracking-tight">
            {title}
          </Heading>
          {description ? <p className="text-sm text-muted">{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

function EmptyDirectory({
  searching,
  search,
  signedIn,
  firstPage,
}: {
  searching: boolean;
  search: string;
  signedIn: boolean;
  firstPage: boolean;
}) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-line px-6 py-10">
      <p className="font-medium">
        {searching ? `No room's name contains “${search}”.` : firstPage ? "There are no rooms yet." : "No older rooms."}
      </p>
      <p className="text-sm text-muted">
        {searching ? "Try a shorter or different word" : "Rooms appear here as people create them"}
        {signedIn ? " — or start one yourself." : "."}
      </p>
      {signedIn ? (
        <Link href="/rooms/new" className={buttonClasses("secondary")}>
          Create a room
        </Link>
      ) : null}
    </div>
  );
}

import Link from "next/link";
import { RoomCard } from "@/components/rooms/room-card";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { getCurrentUser } from "@/lib/auth/current-user";
import { listRooms } from "@/lib/rooms/queries";
import { createClient } from "@/lib/supabase/server";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/** The rooms directory: newest first, searchable by name (a plain GET form), one page at a time. */
export default async function HomePage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const search = first(params.q).slice(0, 80);
  const cursor = first(params.cursor);
  const [user, supabase] = await Promise.all([getCurrentUser(), createClient()]);
  const result = await listRooms(supabase, { search, cursor });
  const searching = search.trim() !== "";
  const olderHref =
    result.ok && result.data.nextCursor
      ? `/?${new URLSearchParams({ ...(searching ? { q: search } : {}), cursor: result.data.nextCursor })}#rooms`
      : null;

  return (
    <main id="main" className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-10 sm:py-14">
      <div className="flex flex-col gap-4">
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Cuepoint</h1>
        <p className="max-w-2xl text-lg text-muted">
          Share music and video with your community, and talk about the exact moments in them — live.
        </p>
        {user ? null : (
          <div className="flex flex-wrap gap-3">
            <Link href="/signup" className={buttonClasses("primary")}>
              Create your account
            </Link>
            <Link href="/login" className={buttonClasses("secondary")}>
              Sign in
            </Link>
          </div>
        )}
      </div>

      <section aria-labelledby="rooms" className="flex flex-col gap-5">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="rooms" className="text-2xl font-semibold tracking-tight">
              Rooms
            </h2>
            <p className="text-sm text-muted">Open rooms anyone can join, and rooms for holders of a token.</p>
          </div>
          {user ? (
            <Link href="/rooms/new" className={buttonClasses("primary")}>
              Create a room
            </Link>
          ) : null}
        </div>

        <form role="search" action="/" method="get" className="flex flex-wrap gap-2" aria-label="Search rooms">
          <label htmlFor="room-search" className="sr-only">
            Search rooms by name
          </label>
          <input
            id="room-search"
            name="q"
            type="search"
            defaultValue={search}
            placeholder="Search rooms by name"
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
    </main>
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

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MembershipNotice } from "@/components/rooms/membership-notice";
import { ReplayPlayer } from "@/components/sessions/replay-player";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { loadRoom, loadRoomAccess } from "@/lib/rooms/room-loader";
import { replayLength, replaySummary, sessionWhen, stretchesOf, tracksOf } from "@/lib/sessions/replay";
import { getReplay } from "@/lib/sessions/replay-queries";
import { isUuid } from "@/lib/validation/ids";

type Params = Promise<{ slug: string; sessionId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { result } = await loadRoom((await params).slug);
  return { title: result.ok ? `Session replay · ${result.data.room.name}` : "Room not found" };
}

const startedAtWords = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC";

/** An ended session of the room, replayed as live: its tracks in order, its comments at their moments. */
export default async function SessionReplayPage({ params }: { params: Params }) {
  const { slug, sessionId } = await params;
  if (!isUuid(sessionId)) notFound();
  const { supabase, result } = await loadRoom(slug);
  if (!result.ok) {
    if (result.error.kind === "not_found") notFound();
    return (
      <main id="main" className="mx-auto w-full max-w-3xl px-4 py-10">
        <Alert tone="error">{result.error.message}</Alert>
      </main>
    );
  }
  const { room } = result.data;
  const { canRead, notice, lapsed } = await loadRoomAccess(slug);
  const roomLink = (
    <Link href={`/r/${room.slug}`} className={`text-sm ${linkClasses}`}>
      ← {room.name}
    </Link>
  );
  if (!canRead) {
    return (
      <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:py-10">
        {roomLink}
        <h1 className="text-2xl font-semibold tracking-tight">Session replay</h1>
        <MembershipNotice notice={notice} lapsed={lapsed} />
        <section
          aria-labelledby="members-only"
          className="flex flex-col gap-2 rounded-2xl border border-dashed border-line px-5 py-8 text-center"
        >
          <h2 id="members-only" className="text-lg font-semibold">
            Only members can replay this room&apos;s sessions
          </h2>
          <p className="text-muted">Join the room from its page to replay its sessions.</p>
        </section>
      </main>
    );
  }

  const replay = await getReplay(supabase, room.id, sessionId);
  if (!replay) notFound();
  const { session, history, posts, comments } = replay;
  if (!session.ended_at) {
    return (
      <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:py-10">
        {roomLink}
        <h1 className="text-2xl font-semibold tracking-tight">Session replay</h1>
        <section aria-labelledby="still-on" className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-raised p-5">
          <h2 id="still-on" className="text-lg font-semibold">
            This session is still on
          </h2>
          <p className="text-muted">It can be replayed once it ends — listen along now instead.</p>
          <Link href={`/r/${room.slug}/listen`} className={buttonClasses("primary", "min-h-11")}>
            Listen together
          </Link>
        </section>
      </main>
    );
  }
  const playable = new Set(posts.map((post) => post.id));
  const tracks = tracksOf(stretchesOf(history, session, (id) => playable.has(id)));
  return (
    <main id="main" className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:py-10">
      {roomLink}
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{sessionWhen(session.started_at, new Date())}</h1>
        <p className="text-sm text-muted">
          Replay · started {startedAtWords(session.started_at)} · {replaySummary(replayLength(session), tracks.length, comments.length)}
        </p>
      </header>
      <ReplayPlayer session={session} history={history} posts={posts} comments={comments} />
    </main>
  );
}

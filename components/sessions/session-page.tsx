"use client";

import { type Dispatch, type SetStateAction, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { PlaybackProvider } from "@/components/moments/playback-provider";
import { type BrowserData, loadSupabaseData } from "@/lib/supabase/browser-clients";
import { Button } from "@/components/ui/button";
import { sessionPostColumns, sessionPostOf, sessionSignedUrlSeconds } from "@/lib/sessions/queries";
import { personName } from "@/lib/people/names";
import type { MediaSessionPicture } from "@/lib/player/media-session";
import type { SessionPost } from "@/lib/sessions/types";
import { ListeningSessionProvider, type ListeningSessionSetup, useListeningSession } from "@/lib/sessions/use-listening-session";
import { useSessionMoments } from "@/lib/sessions/use-session-moments";
import { playsBaseline } from "@/lib/sessions/sync-choice";
import { HostControls, PlaybackTime } from "./host-controls";
import { ListenersList } from "./listeners-list";
import { PostSelect } from "./post-select";
import { QueuePanel } from "./queue-panel";
import { ReadyAnnouncer, ReadyCheck } from "./ready-check";
import { SessionBar } from "./session-bar";
import { SessionMomentComposer } from "./session-moment-composer";
import { SessionPlayer, VolumeControl } from "./session-player";
import { SessionRefused } from "./session-refused";
import { SessionTicker } from "./session-ticker";
import { SessionKeys } from "./session-keys";
import { SkipVote } from "./skip-vote";
import { WaitlistPanel } from "./waitlist-panel";
import { isDjTurns } from "@/lib/sessions/turns";
import { SyncChoice } from "./sync-choice";
import { useReadyPostIds } from "./upload-decks";

/** The session page's client part: the session engine, the player, and the controls around it. */
export function SessionPage({
  setup,
  posts,
  cover,
}: {
  setup: Omit<ListeningSessionSetup, "durations">;
  posts: SessionPost[];
  /** The room's cover, for the lock screen when a post has no picture. */
  cover?: MediaSessionPicture[];
}) {
  const durations = Object.fromEntries(posts.map((post) => [post.id, post.duration_seconds]));
  return (
    <ListeningSessionProvider setup={{ ...setup, durations }}>
      <PlaybackProvider duration={null}>
        <ReadyCheck>
          <SessionView posts={posts} cover={cover} />
        </ReadyCheck>
      </PlaybackProvider>
    </ListeningSessionProvider>
  );
}

/** Signed URLs from the server are fresh for this long after the page loaded; later, a post is signed again. */
const signedFreshMs = (sessionSignedUrlSeconds - 5 * 60) * 1000;

async function signedMediaUrl(data: BrowserData, path: string): Promise<string | null> {
  const { data: signed } = await (await data.storage()).from("media").createSignedUrl(path, sessionSignedUrlSeconds);
  return signed?.signedUrl ?? null;
}

/**
 * The post to play: from the page's list; a post the page does not know (posted after it loaded),
 * or an uploaded file whose signed URL has aged, is read and signed now.
 */
function useSessionPost(postId: string | null, posts: SessionPost[], shared?: FetchedPosts): SessionPost | null {
  const [loadedAt] = useState(() => Date.now());
  const own = useState<Record<string, SessionPost>>({});
  const [fetched, setFetched] = shared ?? own;
  const listed = postId ? posts.find((post) => post.id === postId) : undefined;
  const known = postId ? (fetched[postId] ?? listed) : undefined;
  useEffect(() => {
    if (!postId) return;
    if (fetched[postId]) return;
    if (listed && (!listed.storage_path || Date.now() - loadedAt < signedFreshMs)) return;
    let live = true;
    void loadSupabaseData().then(async (data) => {
      const { data: row } = await data.from("posts").select(sessionPostColumns).eq("id", postId).maybeSingle();
      if (!row || !live) return;
      const signed = row.storage_path ? await signedMediaUrl(data, row.storage_path) : null;
      const post = sessionPostOf(row, signed);
      if (post && live) setFetched((all) => ({ ...all, [post.id]: post }));
    });
    return () => {
      live = false;
    };
  }, [postId, listed, fetched, setFetched, loadedAt]);
  return known ?? null;
}

/** Posts read and signed by the page, shared by the player and the posts waiting, so one read ahead plays as it was read. */
type FetchedPosts = [Record<string, SessionPost>, Dispatch<SetStateAction<Record<string, SessionPost>>>];

function SessionView({ posts, cover }: { posts: SessionPost[]; cover?: MediaSessionPicture[] }) {
  const session = useListeningSession();
  const store = usePlaybackStore();
  const [armed, setArmed] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const following = session.following;
  const fetched = useState<Record<string, SessionPost>>({});
  const post = useSessionPost(session.listeningTo, posts, fetched);
  // What "next" would play (the queue's next, or the next DJ's pick), read (and its file signed) ahead, so its player is ready (lib/sessions/preload.ts).
  const [soonest = null, then = null] = useReadyPostIds(session.session, session.queue, session.playback?.postId ?? null, following);
  const waiting = [useSessionPost(soonest, posts, fetched), useSessionPost(then, posts, fetched)];

  const arm = () => {
    setArmed(true);
    setBlocked(false);
    // Within the click: the browser lets this page play media from now on.
    const media = store?.media();
    if (media && session.playback?.playing && media.paused && media.readyState >= 1) {
      media.currentTime = session.position();
      media.play()?.catch(() => undefined);
    }
  };

  if (session.status === "refused") return <SessionRefused roomId={session.room.id} message={session.statusDetail} />;
  if (!session.session) return <StartSession posts={posts} />;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="flex min-w-0 flex-col gap-6">
        <SessionBar post={post} />
        {!session.isHost && session.error ? (
          <p role="alert" className="text-sm text-danger">
            {session.error}
          </p>
        ) : null}
        <div className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
          <SessionPlayer
            post={post}
            waiting={waiting}
            armed={armed}
            ownPost={!following}
            onBlocked={() => (setArmed(false), setBlocked(true))}
          />
          <PreloadNext posts={posts} />
          <ReadyAnnouncer post={post} />
          {post && !armed && !session.isHost ? (
            <div className="flex flex-col items-start gap-2">
              <Button onClick={arm}>Join the session</Button>
              <p className="text-sm text-muted">
                {blocked
                  ? "Your browser held the sound back — click to start listening."
                  : "Click to hear the session from where it is now."}
              </p>
            </div>
          ) : null}
          {!following ? <OwnControls /> : null}
          {post ? <PlaybackTime duration={session.duration} bar={!session.isHost} /> : null}
          <SkipVote share={session.room.skipShare ?? 0.5} />
          <VolumeControl />
          {post && following ? <SyncChoice /> : null}
        </div>
        {session.isHost ? <HostControls posts={posts} armed={armed} onArm={arm} blocked={blocked} /> : null}
        {isDjTurns(session.session) ? <WaitlistPanel posts={posts} turnMaxSeconds={session.room.turnMaxSeconds ?? 600} /> : null}
        <SessionKeys post={post} armed={armed} onArm={arm} onDisarm={() => setArmed(false)} cover={cover} />
        <SessionMoments post={post} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        <ListenersList
          listeners={session.listeners}
          onMakeHost={session.canEnd && !isDjTurns(session.session) ? (userId) => void session.actions.handOver(userId) : undefined}
        />
        {isDjTurns(session.session) ? null : <SessionQueue posts={posts} />}
      </div>
    </div>
  );
}

/** The session's queue, with what the page knows of posts' titles and people's names. */
function SessionQueue({ posts }: { posts: SessionPost[] }) {
  const { session, playback, queue, self, isHost, listeners } = useListeningSession();
  const known = useMemo(
    () => ({
      posts: Object.fromEntries(posts.map((post) => [post.id, post.title])),
      people: Object.fromEntries(listeners.map((listener) => [listener.user_id, personName(listener).name])),
    }),
    [posts, listeners],
  );
  if (!session) return null;
  return (
    <QueuePanel
      session={{ id: session.id, roomId: session.room_id }}
      playingPostId={playback?.postId ?? null}
      queue={queue}
      viewer={{ userId: self.user_id, role: self.role, isHost }}
      known={known}
    />
  );
}

/**
 * Comments during the session: the ticker of the post this page plays (its comments pop up as
 * playback passes them) and the composer, which stamps a comment with the player's position — and
 * with the session when the post is the session's.
 */
function SessionMoments({ post }: { post: SessionPost | null }) {
  const { session, room, playback, following, position, self, isHost } = useListeningSession();
  const store = usePlaybackStore();
  const postId = post?.id ?? null;
  const { moments, ready, arrived, add } = useSessionMoments(room.id, postId, { userId: self.user_id, gated: room.gated });
  const nominal = useRef({ following, position });
  useEffect(() => {
    nominal.current = { following, position };
  });
  // A comment is stamped where the person hears it: the player's position while it plays; before
  // they have pressed play (or while the media loads), a follower is where the session is.
  const getPosition = useCallback(() => {
    if (!postId || !store) return null;
    const media = store.media();
    if (media && !media.paused) return media.currentTime;
    return nominal.current.following ? nominal.current.position() : store.get().time;
  }, [postId, store]);
  // The ticker follows the session's own timeline while following (smooth, whatever the media's
  // stalls and corrective seeks); on one's own, the person's player.
  const getTickerPosition = useCallback(() => {
    if (!postId || !store) return null;
    return nominal.current.following ? nominal.current.position() : store.get().time;
  }, [postId, store]);
  const inSession = session && postId && playback?.postId === postId ? session.id : undefined;
  return (
    <section aria-labelledby="session-moments" className="flex flex-col gap-3">
      <h2 id="session-moments" className="text-lg font-semibold">
        Comments
      </h2>
      {/* Until the post's comments are read, only what arrived live is news: the rest would all look just made. */}
      <SessionTicker postId={ready ? postId : null} moments={moments} arrived={arrived} getPosition={getTickerPosition} />
      <SessionMomentComposer
        sessionId={inSession}
        post={post ? { id: post.id, durationSeconds: post.duration_seconds } : null}
        getPosition={getPosition}
        onPosted={add}
        primary={!isHost}
        roomId={room.id}
        userId={self.user_id}
      />
    </section>
  );
}

/** Listening on one's own: the player is the person's to play, pause and seek. */
function OwnControls() {
  const store = usePlaybackStore();
  const media = () => store?.media();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        onClick={() =>
          void media()
            ?.play()
            ?.catch(() => undefined)
        }
      >
        Play
      </Button>
      <Button variant="secondary" onClick={() => media()?.pause()}>
        Pause
      </Button>
      <Button variant="secondary" onClick={() => store?.seek(Math.max(0, (media()?.currentTime ?? 0) - 10))}>
        Back 10 s
      </Button>
      <Button variant="secondary" onClick={() => store?.seek((media()?.currentTime ?? 0) + 10)}>
        Forward 10 s
      </Button>
    </div>
  );
}

/** No session on: who may starts one (optionally with a post loaded); everyone else is told who can. */
function StartSession({ posts }: { posts: SessionPost[] }) {
  const { canStart, actions, error, busy, ended } = useListeningSession();
  const [choice, setChoice] = useState("");
  return (
    <section aria-labelledby="no-session" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <h2 id="no-session" className="text-lg font-semibold">
        {ended ? "The session has ended" : "Nobody is listening together right now"}
      </h2>
      {canStart ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void actions.start(choice || null);
          }}
        >
          <PostSelect label="Start with" none="No post yet" posts={posts} value={choice} onChange={setChoice} />
          <Button type="submit" disabled={busy}>
            Start listening together
          </Button>
          {posts.length > 1 || (posts.length === 1 && !choice) ? (
            <p className="w-full text-sm text-muted">
              The room&apos;s newest posts start as the queue — reorder or remove them once it&apos;s on.
            </p>
          ) : null}
        </form>
      ) : (
        <p className="text-muted">The owner and moderators can start a session in this room.</p>
      )}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The next queued post's file, fetched ahead while this one plays (an uploaded file only: a link's
 * provider loads its own player): when the host moves on, every player finds the file in the
 * browser's cache instead of starting to download it then.
 */
function PreloadNext({ posts }: { posts: SessionPost[] }) {
  const { queue, session } = useListeningSession();
  // The player keeps the next file ready itself (./upload-decks.tsx); this is the page's way before that.
  const baseline = useSyncExternalStore(noSubscription, playsBaseline, () => false);
  const nextId = queue.find((entry) => entry.status === "queued")?.post_id ?? null;
  const next = posts.find((post) => post.id === nextId);
  if (!baseline || !next || next.media_kind !== "upload" || next.id === session?.post_id) return null;
  return <audio src={next.src} preload="auto" muted hidden aria-hidden="true" data-preload-next="" />;
}

const noSubscription = () => () => {};

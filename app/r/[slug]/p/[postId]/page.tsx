import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import { RoomLive } from "@/components/live/room-live";
import { MentionText } from "@/components/mentions/mention-text";
import { MomentsSection } from "@/components/moments/moment-list";
import { PostMoments } from "@/components/moments/moments-context";
import { MomentTimeline } from "@/components/moments/timeline";
import { HeatStrip } from "@/components/moments/heat-strip";
import { PlayerBar } from "@/components/moments/player-bar";
import { PostPlayerKeys } from "@/components/moments/post-player-keys";
import { MembersOnly } from "@/components/posts/members-only";
import { JoinInPlace } from "@/components/rooms/membership-join-in-place";
import { MembershipNotice } from "@/components/rooms/membership-notice";
import { MuteButton } from "@/components/notifications/mute-button";
import { BanNotice } from "@/components/moderation/ban-notice";
import { ReportButton } from "@/components/moderation/report-button";
import { PostManage } from "@/components/posts/post-manage";
import { PostPlayer } from "@/components/posts/post-player";
import { formatDuration, formatPostDate } from "@/components/posts/format";
import { Alert } from "@/components/ui/alert";
import { linkClasses } from "@/components/ui/link";
import { mayDeletePost } from "@/lib/rooms/access";
import { presenceSelf } from "@/lib/realtime/presence";
import { getMomentsPage } from "@/lib/moments/queries";
import { getPostHeat } from "@/lib/moments/heat";
import { parseStartTime } from "@/lib/moments/start-time";
import { isUuid } from "@/lib/validation/ids";
import { roomStanding } from "@/lib/moderation/queries";
import { isBanned } from "@/lib/moderation/standing";
import { getPost } from "@/lib/posts/queries";
import { checkPlayableUrl } from "@/lib/media/playable";
import { oembedAlternates } from "@/lib/embed/discovery";
import { loadRoom, loadRoomAccess } from "@/lib/rooms/room-loader";
import { previewMetadata } from "@/lib/previews/metadata";
import { postPagePreview } from "@/lib/previews/queries";
import { mediaArtwork } from "@/lib/player/artwork";

type Params = Promise<{ slug: string; postId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Signed URLs for playback live this long: enough to play a long file, short enough not to share. */
const playbackSeconds = 30 * 60;

/** The room, the caller's access and the post, once per request (metadata and page share it). */
const loadPost = cache(async (slug: string, postId: string) => {
  const { supabase, user, result } = await loadRoom(slug);
  // A room that could not be loaded shows as not found here.
  if (!result.ok) return null;
  const { room } = result.data;
  const access = await loadRoomAccess(slug);
  const post = access.canRead ? await getPost(supabase, room.id, postId) : null;
  return { supabase, room, user, access, post };
});

const load = async (params: Params) => {
  const { slug, postId } = await params;
  return loadPost(slug, postId);
};

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { slug, postId } = await params;
  // The link preview (Open Graph, X card) is the post as a visitor sees it, whoever asks; a comment's link (?comment=) previews the comment.
  const comment = (await searchParams).comment;
  const [loaded, preview] = await Promise.all([
    load(params),
    postPagePreview(slug, postId, typeof comment === "string" && isUuid(comment) ? comment : null).then(previewMetadata),
  ]);
  if (!loaded) return { title: "Room not found" };
  if (!loaded.access.canRead) return { title: `Members only · ${loaded.room.name}`, ...preview };
  const { post, room } = loaded;
  if (!post) return { title: "Post not found", ...preview };
  // A public room's post names its oEmbed answer, so other sites can embed it.
  const embeddable = room.visibility === "public" && !post.hidden_at;
  const alternates = embeddable ? await oembedAlternates(`/r/${room.slug}/p/${post.id}`, post.title) : undefined;
  return { title: `${post.title} · ${room.name}`, ...preview, ...(alternates ? { alternates } : {}) };
}

export default async function PostPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const loaded = await load(params);
  if (!loaded) notFound();
  const { supabase, room, user, access, post } = loaded;
  const userId = user?.id ?? null;
  const roomLink = (
    <Link href={`/r/${room.slug}`} className={`text-sm ${linkClasses}`}>
      ← {room.name}
    </Link>
  );
  // A signed-in visitor may have been banned: told so, and offered no Join.
  const standing = userId !== null && access.role === null ? await roomStanding(supabase, room.id) : null;
  const banNotice = standing && isBanned(standing) ? <BanNotice until={standing.bannedUntil} /> : null;
  if (!access.canRead) {
    return (
      <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
        {roomLink}
        <h1 className="text-2xl font-semibold tracking-tight">{room.name}</h1>
        <MembershipNotice notice={access.notice} lapsed={access.lapsed} />
        <MembersOnly signedIn={userId !== null} />
        {banNotice ??
          (userId !== null && access.role === null ? (
            // Join right here: joined, the page re-renders with the post; refused, the reason shows here.
            <JoinInPlace roomId={room.id} roomName={room.name} gated={room.visibility === "gated"} label="Join this room" />
          ) : userId === null ? (
            <Link
              href={`/login?next=${encodeURIComponent(`/r/${room.slug}/p/${(await params).postId}`)}`}
              className={`text-sm ${linkClasses}`}
            >
              Sign in to join
            </Link>
          ) : null)}
      </main>
    );
  }
  if (!post) notFound();

  const [signed, firstPage, heat] = await Promise.all([
    post.storage_path ? supabase.storage.from("media").createSignedUrl(post.storage_path, playbackSeconds) : null,
    getMomentsPage(supabase, post.id, null),
    getPostHeat(supabase, post.id),
  ]);
  // A link the database holds but no player can open (a row written around the form): said in words.
  const link = post.media_kind === "embed" ? checkPlayableUrl(post.media_url ?? "") : null;
  const src = post.storage_path ? (signed?.data?.signedUrl ?? null) : link?.ok ? link.url : null;
  const audio =
    post.media_kind === "upload" ? /\.(mp3|m4a|wav|ogg|weba|flac|aac)$/.test(post.storage_path ?? "") : post.embed?.provider === "spotify";
  const durationSeconds = post.duration_seconds === null ? null : Number(post.duration_seconds);
  const duration = formatDuration(durationSeconds);
  const isAuthor = userId === post.author_id;
  // Hosted players and streams (YouTube, Vimeo, HLS, …) wait to be played; a file's element is cheap.
  const hostedPlayer = link?.ok === true && link.player !== "html";
  const profile = access.role ? user?.profile : null;
  const moments = firstPage.ok ? firstPage.data : { moments: [], next: null };
  const viewer = { userId, canComment: access.role !== null, canModerate: access.canManage };
  // A link to a moment: `?t=1m42s` starts playback there (`&end=2m10s`: a clip), `?comment=<id>` brings that comment into view.
  const query = await searchParams;
  const linkedComment = typeof query.comment === "string" && isUuid(query.comment) ? query.comment : null;
  const target = { startAt: parseStartTime(query.t), endAt: parseStartTime(query.end), commentId: linkedComment };
  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
      {roomLink}
      {banNotice}
      <PostMoments
        post={{ id: post.id, durationSeconds }}
        room={{ id: room.id, slug: room.slug, name: room.name, gated: room.visibility === "gated" }}
        viewer={viewer}
        initial={moments}
        target={target}
        presenceKey={profile?.id}
      >
        <div className="flex flex-col gap-2">
          {src ? (
            <PostPlayer src={src} audio={audio} poster={post.embed?.thumbnail_url} title={post.title} loadOnPlay={hostedPlayer} />
          ) : link ? (
            <Alert tone="error">
              This post&apos;s link can&apos;t be played — it isn&apos;t an address a player can open. The comments are below.
            </Alert>
          ) : (
            <p className="text-danger">This post&apos;s file can&apos;t be played right now — reload the page in a moment.</p>
          )}
          <HeatStrip postId={post.id} roomId={room.id} initial={heat ?? []}>
            <MomentTimeline waveform={post.waveform} />
          </HeatStrip>
          {src ? <PlayerBar share title={post.title} /> : null}
          {src ? (
            <PostPlayerKeys
              media={{
                title: post.title,
                artist: room.name,
                album: room.name,
                artwork: mediaArtwork(post.embed?.thumbnail_url, room.cover_path),
              }}
            />
          ) : null}
        </div>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{post.title}</h1>
          {post.embed ? (
            <p className="text-sm text-muted">
              {post.embed.provider_name ?? post.embed.provider}
              {post.embed.title && post.embed.title !== post.title ? ` · ${post.embed.title}` : ""}
              {post.embed.author ? ` · by ${post.embed.author}` : ""}
              {duration ? ` · ${duration}` : ""}
            </p>
          ) : post.media_url ? (
            <p className="text-sm text-muted [overflow-wrap:anywhere]">{post.media_url}</p>
          ) : (
            <p className="text-sm text-muted">Uploaded file{duration ? ` · ${duration}` : ""}</p>
          )}
          <p className="flex min-w-0 items-center gap-2 text-sm text-muted">
            <Avatar path={post.author?.avatar_path} name={post.author?.display_name ?? "?"} size={24} />
            {post.author ? (
              <Link href={`/u/${post.author.username}`} className={`truncate ${linkClasses}`}>
                <PersonName person={post.author} />
              </Link>
            ) : (
              <span>Someone</span>
            )}
            <span aria-hidden="true">·</span>
            <time dateTime={post.created_at} className="whitespace-nowrap">
              {formatPostDate(post.created_at)}
            </time>
          </p>
          <MuteButton target={{ postId: post.id }} show={userId !== null} />
        </div>
        {post.hidden_at ? (
          <Alert>Hidden until a moderator reviews it: members&apos; reports hid this post from everyone else.</Alert>
        ) : null}
        {post.body ? (
          <p className="whitespace-pre-line [overflow-wrap:anywhere]">
            <MentionText text={post.body} mentions={post.mentions} />
          </p>
        ) : null}
        {access.role !== null && !isAuthor ? <ReportButton target={{ postId: post.id }} /> : null}
        <RoomLive
          room={{ id: room.id, slug: room.slug, gated: room.visibility === "gated" }}
          self={profile ? presenceSelf(profile) : null}
          post={{ post_id: post.id, title: post.title }}
        />
        {mayDeletePost({ userId, role: access.role }, post.author_id) ? (
          <PostManage target={{ id: post.id, slug: room.slug }} canEdit={isAuthor} initial={{ title: post.title, body: post.body }} />
        ) : null}
        {firstPage.ok ? null : <Alert tone="error">{firstPage.error}</Alert>}
        <MomentsSection />
      </PostMoments>
    </main>
  );
}

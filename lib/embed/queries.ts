// What an embed may show, read as anyone on the internet would read it: an anonymous client with no
// cookies, whoever's browser asks. A framed page or an oEmbed consumer never sees more than a
// visitor of a public room does, even when the person's own session could read more.
import { createClient } from "@supabase/supabase-js";
import { publicEnv } from "@/lib/env";
import { getMomentsPage } from "@/lib/moments/queries";
import { postColumns, type Post, shapePost } from "@/lib/posts/queries";
import { checkPlayableUrl } from "@/lib/media/playable";
import { isUuid } from "@/lib/validation/ids";
import type { Database } from "@/types/database";
import type { EmbeddablePost } from "./oembed";

export function anonymousClient() {
  const env = publicEnv();
  return createClient<Database>(env.supabaseUrl, env.supabaseKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

type Room = { id: string; slug: string; name: string; visibility: string };

/** Signed URLs for an embedded upload live this long, as on the post page. */
const playbackSeconds = 30 * 60;

/** An uploaded file's name says whether it is sound (the post page's rule); a Spotify link is sound too. */
export function isAudioPost(post: Pick<Post, "media_kind" | "storage_path" | "embed">): boolean {
  return post.media_kind === "upload"
    ? /\.(mp3|m4a|wav|ogg|weba|flac|aac)$/.test(post.storage_path ?? "")
    : post.embed?.provider === "spotify";
}

/**
 * A post that may be embedded — in a public room, not hidden or held — with its room; null for
 * anything else (no such post, a gated room's, one under review), which callers treat alike.
 */
export async function publicPost(postId: string): Promise<{ post: Post; room: Room } | null> {
  if (!isUuid(postId)) return null;
  const supabase = anonymousClient();
  const { data } = await supabase
    .from("posts")
    .select(`${postColumns}, room:rooms!posts_room_id_fkey(id, slug, name, visibility)`)
    .eq("id", postId)
    .maybeSingle();
  if (!data) return null;
  const row = data as unknown as Record<string, unknown> & { room: Room | Room[] | null };
  const room = Array.isArray(row.room) ? row.room[0] : row.room;
  const post = shapePost(row);
  if (!room || room.visibility !== "public" || post.hidden_at) return null;
  return { post, room };
}

/** A public comment's post and time (`/m/<id>`), as a visitor reads it; null otherwise. */
export async function publicMoment(momentId: string): Promise<{ postId: string; atSeconds: number | null } | null> {
  if (!isUuid(momentId)) return null;
  const { data } = await anonymousClient().from("moments").select("post_id, at_seconds").eq("id", momentId).maybeSingle();
  return data ? { postId: data.post_id, atSeconds: data.at_seconds === null ? null : Math.floor(Number(data.at_seconds)) } : null;
}

/** What the oEmbed answer says of a post. */
export function embeddable(post: Post, room: Room): EmbeddablePost {
  const embed = post.embed;
  return {
    id: post.id,
    title: post.title,
    room: { slug: room.slug, name: room.name },
    author: post.author ? { username: post.author.username, display_name: post.author.display_name } : null,
    audio: isAudioPost(post),
    // oEmbed asks for a thumbnail's size with its URL; the provider's media size stands for it, when stored.
    thumbnail:
      embed?.thumbnail_url && embed.width && embed.height ? { url: embed.thumbnail_url, width: embed.width, height: embed.height } : null,
  };
}

/** Everything the embed page shows: the playable address, the first page of comments, as a visitor. */
export async function embedPlayback(post: Post) {
  const supabase = anonymousClient();
  const [signed, firstPage] = await Promise.all([
    post.storage_path ? supabase.storage.from("media").createSignedUrl(post.storage_path, playbackSeconds) : null,
    getMomentsPage(supabase, post.id, null),
  ]);
  const link = post.media_kind === "embed" ? checkPlayableUrl(post.media_url ?? "") : null;
  const src = post.storage_path ? (signed?.data?.signedUrl ?? null) : link?.ok ? link.url : null;
  return {
    src,
    hostedPlayer: link?.ok === true && link.player !== "html",
    moments: firstPage.ok ? firstPage.data : { moments: [], next: null },
  };
}

// Link previews read as anyone on the internet would: the anonymous client, with no cookies,
// whoever's page asks. Unfurling bots come without cookies, and the preview must not change with
// the viewer: a gated room's pages always preview as the room (name, gate, "members only"), even
// for a member. Hidden, held and deleted posts and comments never appear; their pages preview as
// their post or room.
import { cache } from "react";
import { anonymousClient } from "@/lib/embed/queries";
import { roomCoverImage } from "@/lib/rooms/covers";
import { gateDetails } from "@/lib/rooms/gate-details";
import { getRoomBySlug } from "@/lib/rooms/queries";
import { getPost } from "@/lib/posts/queries";
import { createAdminClient } from "@/lib/supabase/admin";
import { isUuid } from "@/lib/validation/ids";
import { momentPreview, postPreview, roomPreview, type PostFacts, type Preview, type RoomFacts } from "./card";
import { allowedThumbnail } from "./pictures";

/** A slow chain must not hold a preview: without its answer the gate still reads as a sentence. */
const gateTimeoutMs = 1_500;

type Client = ReturnType<typeof anonymousClient>;

async function roomFacts(supabase: Client, slug: string): Promise<{ id: string; facts: RoomFacts } | null> {
  const result = await getRoomBySlug(supabase, slug, null);
  if (!result.ok) return null;
  const { room, gate } = result.data;
  const gated = room.visibility !== "public";
  const requirement = gate
    ? (await gateDetails(gate, { timeoutMs: gateTimeoutMs })).requirement
    : gated
      ? "Holders of the room's token"
      : null;
  return {
    id: room.id,
    facts: {
      slug: room.slug,
      name: room.name,
      description: room.description,
      cover: roomCoverImage(room.cover_path, { maxWidth: 1200, aspect: 1200 / 630 })?.src ?? null,
      gate: requirement,
    },
  };
}

async function publicPostFacts(supabase: Client, roomId: string, postId: string): Promise<PostFacts | null> {
  const post = await getPost(supabase, roomId, postId);
  if (!post || post.hidden_at) return null;
  return {
    id: post.id,
    title: post.title,
    author: post.author?.display_name ?? null,
    thumbnail: allowedThumbnail(post.embed?.thumbnail_url ?? null),
  };
}

/** The room at `slug`'s page; null when there is no such room. */
export const roomPagePreview = cache(async (slug: string): Promise<Preview | null> => {
  const room = await roomFacts(anonymousClient(), slug);
  return room ? roomPreview(room.facts) : null;
});

/**
 * A post's page: the post in a public room; the room alone for a gated room's, or one hidden or gone.
 * With `?comment=<id>` (where a comment's link leads), that comment, when a visitor may read it there.
 */
export const postPagePreview = cache(async (slug: string, postId: string, commentId: string | null = null): Promise<Preview | null> => {
  const post = await postPreviewOf(slug, postId);
  if (!commentId || post?.card.kind !== "post") return post;
  const moment = await momentPreviewOf(commentId, postId);
  return moment?.card.kind === "moment" ? moment : post;
});

async function postPreviewOf(slug: string, postId: string): Promise<Preview | null> {
  const supabase = anonymousClient();
  const room = await roomFacts(supabase, slug);
  if (!room) return null;
  const path = `/r/${slug}/p/${postId}`;
  if (room.facts.gate !== null) return roomPreview(room.facts, path);
  const post = isUuid(postId) ? await publicPostFacts(supabase, room.id, postId) : null;
  return post ? postPreview(room.facts, post) : roomPreview(room.facts, path);
}

/**
 * A comment's page (`/m/<id>`): its words and time on a public post; otherwise what its post's page
 * previews as (a gated room's, a hidden or held comment's). Null when there is no such comment.
 */
export const momentPagePreview = cache((momentId: string) => momentPreviewOf(momentId, null));

async function momentPreviewOf(momentId: string, onPost: string | null): Promise<Preview | null> {
  if (!isUuid(momentId)) return null;
  const supabase = anonymousClient();
  let query = supabase
    .from("moments")
    .select("id, post_id, room_id, at_seconds, body, hidden_at, held_at, deleted_at, author:profiles!moments_author_id_fkey(display_name)")
    .eq("id", momentId);
  if (onPost) query = query.eq("post_id", onPost);
  const { data: moment } = await query.maybeSingle();
  // On a post's page, only a comment a visitor reads on that very post is described.
  if (onPost && !moment) return null;
  // One a visitor may not read (a gated room's) is looked up for its room alone — never its words.
  const where = moment ?? (await createAdminClient().from("moments").select("post_id, room_id").eq("id", momentId).maybeSingle()).data;
  if (!where) return null;
  const { data: roomRow } = await createAdminClient().from("rooms").select("slug").eq("id", where.room_id).maybeSingle();
  if (!roomRow) return null;
  const path = `/m/${momentId}`;
  const room = await roomFacts(supabase, roomRow.slug);
  if (!room) return null;
  if (room.facts.gate !== null) return roomPreview(room.facts, path);
  const post = await publicPostFacts(supabase, room.id, where.post_id);
  if (!post) return roomPreview(room.facts, path);
  if (!moment || moment.hidden_at || moment.held_at || moment.deleted_at) return { ...postPreview(room.facts, post), path };
  const author = Array.isArray(moment.author) ? moment.author[0] : moment.author;
  return momentPreview(room.facts, post, {
    id: moment.id,
    body: moment.body,
    author: author?.display_name ?? null,
    atSeconds: moment.at_seconds === null ? null : Number(moment.at_seconds),
  });
}

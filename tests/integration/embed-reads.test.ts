// What the embed page and /oembed read (lib/embed/queries.ts), against the real backend and its
// policies: as an anonymous visitor, whatever the caller's own session. A public room's post is
// embeddable with a playable signed address for its uploaded file and its comments; a gated room's
// post or comment, a hidden post and an unknown id read as nothing at all.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { embeddable, embedPlayback, publicMoment, publicPost } from "../../lib/embed/queries";
import { wavFile } from "../helpers/media-files";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, apiUrl, publishableKey, serviceClient } from "../helpers/stack";

let owner: TestUser, member: TestUser;
let room: { id: string; slug: string }, gated: { id: string; slug: string };
let uploadId: string, linkId: string, hiddenId: string, gatedId: string;
let momentId: string, gatedMomentId: string;

async function upload(roomId: string, authorId: string, title: string): Promise<string> {
  const path = `${roomId}/${authorId}/${randomUUID()}.wav`;
  const stored = await serviceClient()
    .storage.from("media")
    .upload(path, Buffer.from(wavFile(2)), { contentType: "audio/wav" });
  if (stored.error) throw stored.error;
  const [row] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, storage_path, duration_seconds) values ($1, $2, $3, 'upload', $4, 2) returning id",
    [roomId, authorId, title, path],
  );
  return row.id;
}

const comment = async (postId: string, roomId: string, authorId: string, at: number, body: string) =>
  (
    await adminQuery<{ id: string }>(
      "insert into public.moments (post_id, room_id, author_id, at_seconds, body) values ($1, $2, $3, $4, $5) returning id",
      [postId, roomId, authorId, at, body],
    )
  )[0].id;

beforeAll(async () => {
  process.env.NEXT_PUBLIC_SUPABASE_URL = apiUrl;
  process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = publishableKey;
  [owner, member] = await Promise.all([signedInUser("embed-owner"), signedInUser("embed-member")]);
  room = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  await addMember(room.id, member.id);
  await addMember(gated.id, member.id);
  uploadId = await upload(room.id, member.id, "An uploaded tone");
  const [link] = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, media_url, embed) values ($1, $2, 'A video', 'embed', 'https://vimeo.com/76979871',
       '{"provider":"vimeo","provider_name":"Vimeo","thumbnail_url":"https://i.vimeocdn.com/video/1.jpg","width":640,"height":360}') returning id`,
    [room.id, member.id],
  );
  linkId = link.id;
  hiddenId = await upload(room.id, member.id, "Hidden by reports");
  await adminQuery("update public.posts set hidden_at = now() where id = $1", [hiddenId]);
  gatedId = await upload(gated.id, member.id, "Members only");
  momentId = await comment(uploadId, room.id, member.id, 1.7, "Right there");
  gatedMomentId = await comment(gatedId, gated.id, member.id, 1, "Secret words");
});

afterAll(async () => {
  await deleteUsers(owner, member);
});

describe("an embed reads as any visitor", () => {
  test("a public room's post, with its room, and what the oEmbed answer says of it", async () => {
    const found = await publicPost(uploadId);
    expect(found?.post).toMatchObject({ id: uploadId, title: "An uploaded tone", media_kind: "upload" });
    expect(found?.room).toMatchObject({ id: room.id, slug: room.slug, visibility: "public" });
    expect(embeddable(found!.post, found!.room)).toMatchObject({ audio: true, thumbnail: null, room: { slug: room.slug } });
    const video = await publicPost(linkId);
    expect(embeddable(video!.post, video!.room)).toMatchObject({
      audio: false,
      thumbnail: { url: "https://i.vimeocdn.com/video/1.jpg", width: 640, height: 360 },
    });
  });

  test("a gated room's post, a hidden post, an unknown or malformed id: nothing", async () => {
    for (const id of [gatedId, hiddenId, randomUUID(), "not-an-id"]) expect(await publicPost(id), id).toBeNull();
  });

  test("a public comment leads to its post and whole second; a gated one is nothing", async () => {
    expect(await publicMoment(momentId)).toEqual({ postId: uploadId, atSeconds: 1 });
    expect(await publicMoment(gatedMomentId)).toBeNull();
    expect(await publicMoment(randomUUID())).toBeNull();
  });

  test("an uploaded file in the private bucket plays for a visitor through a signed address; its comments come with it", async () => {
    const { post } = (await publicPost(uploadId))!;
    const playback = await embedPlayback(post);
    expect(playback.hostedPlayer).toBe(false);
    expect(playback.src).toMatch(/\/storage\/v1\/object\/sign\/media\/.+\?token=/);
    const file = await fetch(playback.src!);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 4)
        .toString("ascii"),
    ).toBe("RIFF");
    expect(playback.moments.moments.map((moment) => moment.body)).toEqual(["Right there"]);
    // A hosted video waits for a press; its link is what plays.
    const video = await embedPlayback((await publicPost(linkId))!.post);
    expect(video).toMatchObject({ src: "https://vimeo.com/76979871", hostedPlayer: true });
  });
});

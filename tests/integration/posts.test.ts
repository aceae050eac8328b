// Posts through the real stack as the people who use them: members post links and uploads, the
// database refuses a post whose upload has not finished, deleting removes the file, a gated room's
// posts and files are invisible to non-members, and files that never became a post are cleaned up.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { removeOrphanUploads } from "../../lib/posts/orphans";
import { getFeedPage } from "../../lib/posts/queries";
import { mediaObjectPath } from "../../lib/storage/buckets";
import { adminQuery, anonClient, serviceClient } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { wavFile } from "../helpers/media-files";

let owner: TestUser, member: TestUser, moderator: TestUser, outsider: TestUser;
let open: { id: string; slug: string }, gated: { id: string; slug: string };
const admin = serviceClient();

beforeAll(async () => {
  [owner, member, moderator, outsider] = await Promise.all([
    signedInUser("post-owner"),
    signedInUser("post-member"),
    signedInUser("post-moderator"),
    signedInUser("post-outsider"),
  ]);
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, member.id);
    await addMember(room.id, moderator.id, "moderator");
  }
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open.id, gated.id]]);
  const names = await adminQuery<{ name: string }>(
    "select name from storage.objects where bucket_id = 'media' and (name like $1 or name like $2)",
    [`${open.id}/%`, `${gated.id}/%`],
  );
  if (names.length) await admin.storage.from("media").remove(names.map((row) => row.name));
  await deleteUsers(owner, member, moderator, outsider);
});

const fileExists = async (path: string) =>
  (await adminQuery("select 1 from storage.objects where bucket_id = 'media' and name = $1", [path])).length === 1;

/** The browser's two steps: a signed upload URL as the member, then the bytes to it. */
async function upload(user: TestUser, roomId: string, bytes = wavFile(0.25)) {
  const path = mediaObjectPath(roomId, user.id, "audio/wav", crypto.randomUUID());
  const signed = await user.client.storage.from("media").createSignedUploadUrl(path);
  if (signed.error) throw signed.error;
  const stored = await user.client.storage
    .from("media")
    .uploadToSignedUrl(path, signed.data.token, new Blob([bytes as BlobPart], { type: "audio/wav" }), { contentType: "audio/wav" });
  if (stored.error) throw stored.error;
  return path;
}

describe("link posts", () => {
  test("a member posts a link; everyone reads it in the public room", async () => {
    const { data, error } = await member.client
      .from("posts")
      .insert({
        room_id: open.id,
        author_id: member.id,
        title: "A link",
        media_kind: "embed",
        media_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      })
      .select("id, embed")
      .single();
    expect(error).toBeNull();
    expect(data?.embed).toBeNull();
    const { data: seen } = await outsider.client.from("posts").select("title").eq("id", data!.id);
    expect(seen).toEqual([{ title: "A link" }]);
  });

  test("authors cannot write the embed metadata themselves; the server (service role) can", async () => {
    const refused = await member.client.from("posts").insert({
      room_id: open.id,
      author_id: member.id,
      title: "Forged",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      embed: { provider: "vimeo", title: "<script>" },
    } as never);
    expect(refused.error?.code).toBe("42501");
    const { data: post } = await member.client
      .from("posts")
      .insert({ room_id: open.id, author_id: member.id, title: "Real", media_kind: "embed", media_url: "https://vimeo.com/76979871" })
      .select("id")
      .single();
    const update = await member.client
      .from("posts")
      .update({ embed: { provider: "vimeo" } } as never)
      .eq("id", post!.id);
    expect(update.error?.code).toBe("42501");
    const server = await admin
      .from("posts")
      .update({
        embed: {
          provider: "vimeo",
          provider_name: "Vimeo",
          title: "A film",
          author: "Someone",
          thumbnail_url: "https://i.vimeocdn.com/a.jpg",
        },
      })
      .eq("id", post!.id)
      .select("embed")
      .single();
    expect(server.data?.embed).toMatchObject({ provider_name: "Vimeo", title: "A film" });
  });

  test("someone who is not a member cannot post in the room", async () => {
    const { error } = await outsider.client
      .from("posts")
      .insert({ room_id: open.id, author_id: outsider.id, title: "Drive-by", media_kind: "embed", media_url: "https://vimeo.com/1" });
    expect(error?.code).toBe("42501");
  });
});

describe("uploads", () => {
  test("a member uploads through a signed URL, then posts it with its duration", async () => {
    const path = await upload(member, open.id, wavFile(1.5));
    const { data, error } = await member.client
      .from("posts")
      .insert({ room_id: open.id, author_id: member.id, title: "A tone", media_kind: "upload", storage_path: path, duration_seconds: 1.5 })
      .select("storage_path, duration_seconds")
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ storage_path: path, duration_seconds: 1.5 });
    const signed = await outsider.client.storage.from("media").createSignedUrl(path, 60);
    expect(signed.error).toBeNull();
    const played = await fetch(signed.data!.signedUrl);
    expect(played.status).toBe(200);
    expect((await played.arrayBuffer()).byteLength).toBe(wavFile(1.5).byteLength);
  });

  test("a post whose upload has not finished is refused", async () => {
    const path = mediaObjectPath(open.id, member.id, "audio/wav", crypto.randomUUID());
    const signed = await member.client.storage.from("media").createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    const { error } = await member.client
      .from("posts")
      .insert({ room_id: open.id, author_id: member.id, title: "Too soon", media_kind: "upload", storage_path: path });
    expect(error?.code).toBe("23503");
    expect(error?.message).toBe("The upload has not finished — try again once it has");
    expect((await adminQuery("select 1 from public.posts where storage_path = $1", [path])).length).toBe(0);
  });

  test("a non-member cannot get an upload URL for the room, nor upload into someone else's folder", async () => {
    const outsiderPath = mediaObjectPath(open.id, outsider.id, "audio/wav", crypto.randomUUID());
    expect((await outsider.client.storage.from("media").createSignedUploadUrl(outsiderPath)).error).not.toBeNull();
    const foreign = mediaObjectPath(open.id, owner.id, "audio/wav", crypto.randomUUID());
    expect((await member.client.storage.from("media").createSignedUploadUrl(foreign)).error).not.toBeNull();
  });

  test("the bucket refuses what is not audio or video", async () => {
    const path = `${open.id}/${member.id}/${crypto.randomUUID()}.txt`;
    const signed = await member.client.storage.from("media").createSignedUploadUrl(path);
    const stored = await member.client.storage
      .from("media")
      .uploadToSignedUrl(path, signed.data!.token, new Blob(["hello"], { type: "text/plain" }), { contentType: "text/plain" });
    expect(stored.error).not.toBeNull();
    expect(await fileExists(path)).toBe(false);
  });

  test("the author deletes an upload post and its file", async () => {
    const path = await upload(member, open.id);
    const { data: post } = await member.client
      .from("posts")
      .insert({ room_id: open.id, author_id: member.id, title: "Short-lived", media_kind: "upload", storage_path: path })
      .select("id")
      .single();
    const deleted = await member.client.from("posts").delete().eq("id", post!.id).select("storage_path");
    expect(deleted.data).toEqual([{ storage_path: path }]);
    const removed = await member.client.storage.from("media").remove([path]);
    expect(removed.data?.map((file) => file.name)).toEqual([path]);
    expect(await fileExists(path)).toBe(false);
  });

  test("a moderator deletes another member's upload post and its file; another member cannot", async () => {
    const path = await upload(member, gated.id);
    const { data: post } = await member.client
      .from("posts")
      .insert({ room_id: gated.id, author_id: member.id, title: "Moderated", media_kind: "upload", storage_path: path })
      .select("id")
      .single();
    const bystander = await signedInUser("post-bystander");
    await addMember(gated.id, bystander.id);
    expect((await bystander.client.from("posts").delete().eq("id", post!.id).select("id")).data).toEqual([]);
    expect((await bystander.client.storage.from("media").remove([path])).data).toEqual([]);
    expect(await fileExists(path)).toBe(true);
    expect((await moderator.client.from("posts").delete().eq("id", post!.id).select("id")).data).toHaveLength(1);
    expect((await moderator.client.storage.from("media").remove([path])).data).toHaveLength(1);
    expect(await fileExists(path)).toBe(false);
    await deleteUsers(bystander);
  });
});

describe("a gated room to someone who is not a member", () => {
  let path = "";
  beforeAll(async () => {
    path = await upload(member, gated.id);
    await member.client
      .from("posts")
      .insert({ room_id: gated.id, author_id: member.id, title: "Members only", media_kind: "upload", storage_path: path });
  });

  test("REST shows none of its posts, to a signed-in outsider or to anyone signed out", async () => {
    const asOutsider = await outsider.client.from("posts").select("id").eq("room_id", gated.id);
    expect(asOutsider.error).toBeNull();
    expect(asOutsider.data).toEqual([]);
    const anon = await anonClient().from("posts").select("id").eq("room_id", gated.id);
    expect(anon.data).toEqual([]);
    const asMember = await member.client.from("posts").select("id").eq("room_id", gated.id);
    expect(asMember.data?.length).toBeGreaterThan(0);
  });

  test("Storage signs no URL for its files and lists none of them", async () => {
    const signed = await outsider.client.storage.from("media").createSignedUrl(path, 60);
    expect(signed.data).toBeNull();
    expect(signed.error).not.toBeNull();
    const listed = await outsider.client.storage.from("media").list(`${gated.id}/${member.id}`);
    expect(listed.data ?? []).toEqual([]);
    const download = await outsider.client.storage.from("media").download(path);
    expect(download.data).toBeNull();
  });
});

describe("files that never became a post", () => {
  test("are removed after the grace period; files with a post, and recent ones, stay", async () => {
    const abandoned = await upload(member, open.id);
    const recent = await upload(member, open.id);
    const posted = await upload(member, open.id);
    await member.client
      .from("posts")
      .insert({ room_id: open.id, author_id: member.id, title: "Kept", media_kind: "upload", storage_path: posted });
    await adminQuery(
      "update storage.objects set created_at = now() - interval '2 hours' where bucket_id = 'media' and name = any($1::text[])",
      [[abandoned, posted]],
    );

    expect((await admin.rpc("media_orphan_uploads", { grace: "1 hour" })).data).toContain(abandoned);
    const removed = await removeOrphanUploads(admin);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await fileExists(abandoned)).toBe(false);
    expect((await admin.storage.from("media").download(abandoned)).data).toBeNull();
    expect(await fileExists(recent)).toBe(true);
    expect(await fileExists(posted)).toBe(true);
  });

  test("only the service role may list them", async () => {
    const { error } = await member.client.rpc("media_orphan_uploads", { grace: "0 seconds" });
    expect(error).not.toBeNull();
  });
});

describe("the feed", () => {
  test("pages newest first by (created_at, id), ties included, with nothing repeated or skipped", async () => {
    const room = await createRoom(owner.id, "public");
    // 25 posts, five of them (10–14) sharing one timestamp to the microsecond, where page 1 ends
    await adminQuery(
      `insert into public.posts (room_id, author_id, title, media_kind, media_url, created_at)
       select $1, $2, 'Post ' || i, 'embed', 'https://vimeo.com/' || i,
              case when i between 10 and 14 then timestamptz '2026-11-01 12:00:03.623456+00' else timestamptz '2026-11-01 12:00:00+00' + make_interval(secs => i) end
       from generate_series(1, 25) i`,
      [room.id, owner.id],
    );
    const first = await getFeedPage(member.client as never, room.id, null);
    if (!first.ok) throw new Error(first.error);
    expect(first.data.posts).toHaveLength(20);
    expect(first.data.posts[0].title).toBe("Post 25");
    expect(first.data.posts[0].author?.display_name).toBeTruthy();
    expect(first.data.next).not.toBeNull();
    const second = await getFeedPage(member.client as never, room.id, first.data.next);
    if (!second.ok) throw new Error(second.error);
    expect(second.data.next).toBeNull();
    const titles = [...first.data.posts, ...second.data.posts].map((post) => post.title);
    expect(new Set(titles).size).toBe(25);
    expect(first.data.posts.map((post) => post.title).filter((title) => /^Post 1[0-4]$/.test(title)).length).toBeGreaterThan(0);
    expect(second.data.posts.map((post) => post.title).filter((title) => /^Post 1[0-4]$/.test(title)).length).toBeGreaterThan(0);
    const order = [...first.data.posts, ...second.data.posts];
    for (let i = 1; i < order.length; i++) {
      const [newer, older] = [order[i - 1], order[i]];
      const sameTime = newer.created_at === older.created_at;
      expect(sameTime ? newer.id > older.id : Date.parse(newer.created_at) >= Date.parse(older.created_at)).toBe(true);
    }
    await adminQuery("delete from public.rooms where id = $1", [room.id]);
  });
});

// Replies and @mentions as the post page reads and writes them, through the real stack with
// supabase-js: a reply takes its comment's post and time and comes with it (never as a comment of
// its own), a reply to a reply is refused in words, a comment deleted over its replies stays as
// "Comment deleted" until its last reply goes, mentions name members only (a gated room's
// non-member is not named), a rename keeps the link, and the @ list shows a room's members only to
// those who may read it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { searchMembers } from "../../lib/mentions/members";
import { mentionParts } from "../../lib/mentions/tokens";
import { momentActionMessages, writeProblem } from "../../lib/moments/errors";
import { getMoment, getMomentsPage, getThread } from "../../lib/moments/queries";
import { insertReply, removeMoment } from "../../lib/moments/writes";
import { getPost } from "../../lib/posts/queries";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient } from "../helpers/stack";

let owner: TestUser, member: TestUser, outsider: TestUser;
let room: { id: string }, gated: { id: string };
let postId: string, gatedPostId: string;
const names: Record<string, string> = {};

async function makePost(roomId: string, authorId: string, body = "") {
  const [row] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, body, media_kind, media_url, duration_seconds) values ($1, $2, 'A track', $3, 'embed', 'https://media.cuepoint-files.com/tone.wav', 300) returning id",
    [roomId, authorId, body],
  );
  return row.id;
}

async function comment(client: TestUser, post: string, at: number | null, body: string): Promise<string> {
  const { data, error } = await client.client
    .from("moments")
    .insert({ post_id: post, author_id: client.id, at_seconds: at, body } as never)
    .select("id")
    .single<{ id: string }>();
  if (error) throw error;
  return data.id;
}

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all(["rm-owner", "rm-member", "rm-outsider"].map((label) => signedInUser(label)));
  const tag = randomUUID().slice(0, 6);
  for (const [who, label] of [
    [owner, "own"],
    [member, "mem"],
    [outsider, "out"],
  ] as const) {
    names[who.id] = `rm${label}_${tag}`;
    await adminQuery("update public.profiles set username = $2, display_name = $3 where id = $1", [
      who.id,
      names[who.id],
      `Replies ${label} ${tag}`,
    ]);
  }
  room = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  await addMember(room.id, member.id);
  await addMember(gated.id, member.id);
  postId = await makePost(room.id, owner.id);
  gatedPostId = await makePost(gated.id, owner.id, `For @${names[member.id]} and @${names[outsider.id]}`);
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[room.id, gated.id]]);
  await deleteUsers(owner, member, outsider);
});

describe("replies", () => {
  test("a reply takes its comment's post and time, and is read under it, not as a comment of its own", async () => {
    const otherPost = await makePost(room.id, owner.id);
    const parent = await comment(owner, postId, 42.5, "The drop at 0:42");
    // The post it names is ignored: the comment's post wins.
    const { data, error } = await member.client
      .from("moments")
      .insert({ post_id: otherPost, author_id: member.id, body: "Agreed", parent_id: parent, at_seconds: 3 } as never)
      .select("id, post_id, at_seconds, session_id, parent_id")
      .single<{ id: string; post_id: string; at_seconds: number; session_id: string | null; parent_id: string }>();
    expect(error).toBeNull();
    expect(data).toMatchObject({ post_id: postId, at_seconds: 42.5, session_id: null, parent_id: parent });
    const second = await insertReply(member.client, member.id, parent, "And again");
    expect(second.ok).toBe(true);

    const page = await getMomentsPage(anonClient(), postId, null);
    expect(page.ok).toBe(true);
    const moments = page.ok ? page.data.moments : [];
    expect(moments.map((m) => m.id)).toEqual([parent]);
    expect(moments[0].replies?.map((r) => r.body)).toEqual(["Agreed", "And again"]);
    expect(moments[0].replies?.[0].author?.username).toBe(names[member.id]);
    const thread = await getThread(anonClient(), parent);
    expect(thread?.replies).toHaveLength(2);
  });

  test("a reply to a reply is refused with the thread's rule, a non-member's reply with joining", async () => {
    const parent = await comment(owner, postId, 10, "Start of a thread");
    const reply = await insertReply(member.client, member.id, parent, "First answer");
    expect(reply.ok).toBe(true);
    const nested = await insertReply(member.client, member.id, reply.ok ? reply.data : "", "Answer to the answer");
    expect(nested).toEqual({ ok: false, error: { message: momentActionMessages.replyToThread } });
    const stranger = await insertReply(outsider.client, outsider.id, parent, "Me too");
    expect(stranger.ok).toBe(false);
    expect(!stranger.ok && stranger.error.message).toBe(momentActionMessages.joinToReply);
    const gone = await insertReply(member.client, member.id, randomUUID(), "Hello?");
    expect(!gone.ok && gone.error.message).toBe(momentActionMessages.parentGone);
  });

  test("deleting a comment with replies leaves 'Comment deleted'; its last reply's deletion removes it", async () => {
    const parent = await comment(member, postId, 20, "Soon deleted");
    await member.client.from("reactions").insert({ moment_id: parent, user_id: member.id, emoji: "🔥" } as never);
    const first = await insertReply(owner.client, owner.id, parent, "Reply one");
    const second = await insertReply(member.client, member.id, parent, "Reply two");
    if (!first.ok || !second.ok) throw new Error("replies not made");

    const deleted = await removeMoment(member.client, parent);
    expect(deleted.ok && deleted.data.deletedAt).toBeTruthy();
    const emptied = await getThread(anonClient(), parent);
    expect(emptied).toMatchObject({ body: "", reactions: [], mentions: [] });
    expect(emptied?.deleted_at).toBeTruthy();
    expect(emptied?.replies?.map((r) => r.body)).toEqual(["Reply one", "Reply two"]);

    // Nothing more happens to it: no edit back to life, no reaction, no new reply.
    const { error: edit } = await member.client.from("moments").update({ body: "Back" }).eq("id", parent);
    expect(edit && writeProblem(edit, "moment").message).toBe(momentActionMessages.commentDeleted);
    const { error: react } = await owner.client.from("reactions").insert({ moment_id: parent, user_id: owner.id, emoji: "👏" } as never);
    expect(react && writeProblem(react, "reaction").message).toBe(momentActionMessages.commentDeleted);
    const late = await insertReply(owner.client, owner.id, parent, "Too late");
    expect(!late.ok && late.error.message).toBe(momentActionMessages.parentGone);

    // Someone else may not delete the placeholder's replies; their authors may.
    expect(await removeMoment(member.client, first.data)).toEqual({ ok: false, error: momentActionMessages.onlyAllowedDelete });
    expect(await removeMoment(owner.client, first.data)).toEqual({ ok: true, data: { deletedAt: null } });
    expect(await getMoment(anonClient(), parent)).not.toBeNull();
    expect(await removeMoment(member.client, second.data)).toEqual({ ok: true, data: { deletedAt: null } });
    expect(await getMoment(anonClient(), parent)).toBeNull();
    // A comment without replies is simply removed.
    const plain = await comment(member, postId, 5, "Plain");
    expect(await removeMoment(member.client, plain)).toEqual({ ok: true, data: { deletedAt: null } });
    expect(await getMoment(anonClient(), plain)).toBeNull();
  });
});

describe("mentions", () => {
  test("in a gated room, a member is named and a non-member is not, in comments, replies and posts", async () => {
    const body = `@${names[member.id]} and @${names[outsider.id]}, listen`;
    const parent = await comment(owner, gatedPostId, 30, body);
    const moment = await getMoment(member.client, parent);
    expect(moment?.mentions?.map((m) => m.user_id)).toEqual([member.id]);
    expect(moment?.mentions?.[0]).toMatchObject({ handle: names[member.id], person: { username: names[member.id] } });
    const parts = mentionParts(moment!.body, moment!.mentions);
    expect(parts.filter((part) => "username" in part).map((part) => part.text)).toEqual([`@${names[member.id]}`]);

    const reply = await insertReply(member.client, member.id, parent, `thanks @${names[owner.id]}`);
    const replied = reply.ok ? await getMoment(member.client, reply.data) : null;
    expect(replied?.mentions?.map((m) => m.user_id)).toEqual([owner.id]);

    const post = await getPost(member.client as never, gated.id, gatedPostId);
    expect(post?.mentions?.map((m) => m.user_id)).toEqual([member.id]);
    // The outsider reads neither the comment nor its mentions.
    expect(await getMoment(outsider.client, parent)).toBeNull();
  });

  test("a rename keeps the mention: the link goes to the new username", async () => {
    const id = await comment(owner, postId, 50, `cc @${names[member.id]}`);
    const renamed = `rmnew_${randomUUID().slice(0, 6)}`;
    await adminQuery("update public.profiles set username = $2 where id = $1", [member.id, renamed]);
    try {
      const moment = await getMoment(anonClient(), id);
      expect(moment?.mentions).toEqual([{ user_id: member.id, handle: names[member.id], person: { username: renamed } }]);
      const link = mentionParts(moment!.body, moment!.mentions).find((part) => "username" in part);
      expect(link).toMatchObject({ text: `@${names[member.id]}`, username: renamed });
    } finally {
      await adminQuery("update public.profiles set username = $2 where id = $1", [member.id, names[member.id]]);
    }
  });

  test("an edit that names someone new is read back (after the update) with the new mention", async () => {
    const id = await comment(member, postId, 60, "nice");
    const { error } = await member.client
      .from("moments")
      .update({ body: `nice, @${names[owner.id]}` })
      .eq("id", id);
    expect(error).toBeNull();
    const { data } = await member.client
      .from("moments")
      .select("id, body, updated_at, mentions(user_id, handle, person:profiles(username))")
      .eq("id", id)
      .maybeSingle();
    expect(data?.mentions).toEqual([{ user_id: owner.id, handle: names[owner.id], person: { username: names[owner.id] } }]);
  });

  test("the @ list: a room's members by username or display name; a gated room's only for its members", async () => {
    const all = await searchMembers(member.client, room.id, "");
    expect(all?.map((m) => m.id).sort()).toEqual([owner.id, member.id].sort());
    const byName = await searchMembers(member.client, room.id, names[owner.id].slice(0, 5));
    expect(byName?.map((m) => m.username)).toContain(names[owner.id]);
    expect(byName?.map((m) => m.username)).not.toContain(names[outsider.id]);
    const byDisplay = await searchMembers(member.client, room.id, `mem ${names[member.id].slice(-6)}`.replace(/ /g, ""));
    expect(byDisplay).toEqual([]);
    const display = await searchMembers(anonClient(), room.id, "replies");
    expect(display?.length).toBeGreaterThanOrEqual(2);
    expect(await searchMembers(outsider.client, room.id, names[member.id])).toHaveLength(1);

    const inGated = await searchMembers(member.client, gated.id, names[owner.id]);
    expect(inGated?.map((m) => m.id)).toEqual([owner.id]);
    expect(await searchMembers(outsider.client, gated.id, "")).toEqual([]);
    expect(await searchMembers(anonClient(), gated.id, "")).toEqual([]);
  });
});

// Moments and reactions through /rest/v1 with the real supabase-js, as each kind of person: who
// reads a gated room's moments, the post page's query and its next page, and every bad input with
// the PostgREST error the app maps (code, and the constraint named in the message) — nothing written.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminQuery, anonClient, serviceClient } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

let owner: TestUser, member: TestUser, other: TestUser, moderator: TestUser, outsider: TestUser;
let open: { id: string }, gated: { id: string };
let openPost: string, gatedPost: string;

/** What the post page asks for: one page of a post's moments in media order, general comments last, with their reactions. */
const pageColumns = "id,post_id,author_id,at_seconds,body,created_at,updated_at,reactions(emoji,user_id)";

async function newPost(user: TestUser, roomId: string, title: string): Promise<string> {
  const { data, error } = await user.client
    .from("posts")
    .insert({
      room_id: roomId,
      author_id: user.id,
      title,
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 120,
    })
    .select("id")
    .single();
  if (error) throw error;
  return data.id;
}

async function comment(user: TestUser, postId: string, body: string, atSeconds: number | null = null) {
  return user.client
    .from("moments")
    .insert({ post_id: postId, author_id: user.id, at_seconds: atSeconds, body })
    .select("id, room_id")
    .single();
}

const momentCount = async (postId: string) =>
  Number((await adminQuery<{ n: string }>("select count(*) as n from public.moments where post_id = $1", [postId]))[0].n);
const reactionCount = async (postId: string) =>
  Number((await adminQuery<{ n: string }>("select count(*) as n from public.reactions where post_id = $1", [postId]))[0].n);

beforeAll(async () => {
  [owner, member, other, moderator, outsider] = await Promise.all(
    ["mo-owner", "mo-member", "mo-other", "mo-moderator", "mo-outsider"].map((label) => signedInUser(label)),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, member.id);
    await addMember(room.id, other.id);
    await addMember(room.id, moderator.id, "moderator");
  }
  openPost = await newPost(member, open.id, "Open post");
  gatedPost = await newPost(member, gated.id, "Gated post");
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open?.id, gated?.id].filter(Boolean)]);
  await deleteUsers(owner, member, other, moderator, outsider);
});

describe("reading a room's moments", () => {
  test("a gated room's moments and reactions: members read them; a signed-in non-member and anon read none", async () => {
    const { data: moment } = await comment(member, gatedPost, "the drop at 1:42", 102);
    expect(moment?.room_id).toBe(gated.id);
    expect((await other.client.from("reactions").insert({ moment_id: moment!.id, user_id: other.id, emoji: "🔥" })).error).toBeNull();

    const asMember = await other.client.from("moments").select(pageColumns).eq("post_id", gatedPost).eq("id", moment!.id);
    expect(asMember.error).toBeNull();
    expect(asMember.data).toEqual([
      expect.objectContaining({ body: "the drop at 1:42", at_seconds: 102, reactions: [{ emoji: "🔥", user_id: other.id }] }),
    ]);

    for (const stranger of [outsider.client, anonClient()]) {
      const moments = await stranger.from("moments").select(pageColumns).eq("post_id", gatedPost);
      expect(moments).toMatchObject({ error: null, data: [] });
      const reactions = await stranger.from("reactions").select("emoji").eq("moment_id", moment!.id);
      expect(reactions).toMatchObject({ error: null, data: [] });
    }
  });

  test("a public room's moments are read by anyone, signed in or not", async () => {
    const { data: moment } = await comment(member, openPost, "in general");
    for (const reader of [outsider.client, anonClient()]) {
      const { data, error } = await reader.from("moments").select("body, at_seconds").eq("id", moment!.id);
      expect(error).toBeNull();
      expect(data).toEqual([{ body: "in general", at_seconds: null }]);
    }
  });

  test("the post page's query: media order, general comments last, then the next page by cursor", async () => {
    const postId = await newPost(member, gated.id, "Paged");
    const times = [30, null, 5, 5, 120, 0, null];
    for (const [i, at] of times.entries()) expect((await comment(member, postId, `c${i}`, at)).error).toBeNull();
    const page = (query: ReturnType<typeof other.client.from>) =>
      query
        .select(pageColumns)
        .eq("post_id", postId)
        .order("at_seconds", { ascending: true, nullsFirst: false })
        .order("id", { ascending: true })
        .limit(3);
    const first = await page(other.client.from("moments"));
    expect(first.error).toBeNull();
    expect(first.data!.map((m) => m.at_seconds)).toEqual([0, 5, 5]);
    const last = first.data!.at(-1)!;
    // after (at, id): `at >= cursor` on its own so the scan starts there; then the general comments by id
    const second = await page(other.client.from("moments"))
      .gte("at_seconds", last.at_seconds)
      .or(`at_seconds.gt.${last.at_seconds},id.gt.${last.id}`);
    expect(second.data!.map((m) => m.at_seconds)).toEqual([30, 120]);
    const general = await page(other.client.from("moments")).is("at_seconds", null);
    expect(general.data!.map((m) => m.at_seconds)).toEqual([null, null]);
    const third = await page(other.client.from("moments")).is("at_seconds", null).gt("id", general.data![0].id);
    expect(third.data).toEqual([general.data![1]]);
    const lastOfSecond = general.data![1];
    expect(new Set([...first.data!, ...second.data!, ...general.data!].map((m) => m.id)).size).toBe(times.length);
    expect(lastOfSecond.at_seconds).toBeNull();
  });
});

describe("writing moments: bad input is refused with the error the app maps, and nothing is written", () => {
  test.each([
    ["a time past the post's duration", 120.5, "a comment", "23514", "That time is past the end of the media"],
    ["a negative time", -1, "a comment", "23514", 'new row for relation "moments" violates check constraint "moments_at_seconds_range"'],
    ["an empty comment", 10, "", "23514", 'new row for relation "moments" violates check constraint "moments_body_length"'],
    [
      "a comment of only whitespace",
      10,
      " \n\t ",
      "23514",
      'new row for relation "moments" violates check constraint "moments_body_length"',
    ],
    [
      "a 1001-character comment",
      10,
      "x".repeat(1001),
      "23514",
      'new row for relation "moments" violates check constraint "moments_body_length"',
    ],
  ])("%s", async (_, at, body, code, message) => {
    const before = await momentCount(gatedPost);
    const { data, error } = await comment(member, gatedPost, body, at);
    expect(data).toBeNull();
    expect(error).toMatchObject({ code, message });
    expect(await momentCount(gatedPost)).toBe(before);
  });

  test("a 1000-character comment at the very end is accepted", async () => {
    const { error } = await comment(member, gatedPost, "é".repeat(1000), 120);
    expect(error).toBeNull();
  });

  test("commenting in a room you are not a member of is refused by its policy", async () => {
    const before = [await momentCount(gatedPost), await momentCount(openPost)];
    for (const postId of [gatedPost, openPost]) {
      const { error } = await comment(outsider, postId, "let me in", 1);
      expect(error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "moments"' });
    }
    const anon = await anonClient().from("moments").insert({ post_id: openPost, author_id: member.id, body: "anon" });
    expect(anon.error).toMatchObject({ code: "42501", message: "permission denied for table moments" });
    expect(anon.status).toBe(401);
    expect([await momentCount(gatedPost), await momentCount(openPost)]).toEqual(before);
  });

  test("a client cannot name a moment's room (the column is not theirs to write), nor comment as someone else", async () => {
    const forged = await member.client
      .from("moments")
      .insert({ post_id: gatedPost, room_id: open.id, author_id: member.id, body: "forged" } as never);
    expect(forged.error).toMatchObject({ code: "42501", message: "permission denied for table moments" });
    const impersonated = await comment({ ...member, id: other.id }, gatedPost, "as someone else");
    expect(impersonated.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "moments"' });
    expect(await adminQuery("select 1 from public.moments where body in ('forged', 'as someone else')")).toEqual([]);
  });

  test("a member whose membership ended can no longer comment or edit", async () => {
    const leaver = await signedInUser("mo-leaver");
    try {
      await addMember(gated.id, leaver.id);
      const { data: mine } = await comment(leaver, gatedPost, "before I left", 3);
      await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [gated.id, leaver.id]);
      const again = await comment(leaver, gatedPost, "after I left", 4);
      expect(again.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "moments"' });
      const edit = await leaver.client.from("moments").update({ body: "edited after" }).eq("id", mine!.id).select("id");
      expect(edit).toMatchObject({ error: null, data: [] });
      expect((await adminQuery<{ body: string }>("select body from public.moments where id = $1", [mine!.id]))[0].body).toBe(
        "before I left",
      );
    } finally {
      await deleteUsers(leaver);
    }
  });

  test("authors edit their own; moderators delete any, edit none; others neither", async () => {
    const { data: mine } = await comment(member, gatedPost, "first take", 10);
    const edited = await member.client
      .from("moments")
      .update({ body: "second take", at_seconds: 11 })
      .eq("id", mine!.id)
      .select("body, at_seconds")
      .single();
    expect(edited.data).toEqual({ body: "second take", at_seconds: 11 });
    const pastEnd = await member.client.from("moments").update({ at_seconds: 500 }).eq("id", mine!.id);
    expect(pastEnd.error).toMatchObject({ code: "23514", message: "That time is past the end of the media" });
    const moved = await member.client
      .from("moments")
      .update({ room_id: open.id } as never)
      .eq("id", mine!.id);
    expect(moved.error).toMatchObject({ code: "42501", message: "permission denied for table moments" });
    expect((await other.client.from("moments").update({ body: "hijack" }).eq("id", mine!.id).select("id")).data).toEqual([]);
    expect((await other.client.from("moments").delete().eq("id", mine!.id).select("id")).data).toEqual([]);
    expect((await moderator.client.from("moments").update({ body: "moderated" }).eq("id", mine!.id).select("id")).data).toEqual([]);
    expect((await moderator.client.from("moments").delete().eq("id", mine!.id).select("id")).data).toEqual([{ id: mine!.id }]);
  });
});

describe("reactions", () => {
  test("an emoji outside the five, and a second identical reaction, are refused; nothing written", async () => {
    const { data: moment } = await comment(member, gatedPost, "react to me", 20);
    expect((await other.client.from("reactions").insert({ moment_id: moment!.id, user_id: other.id, emoji: "👏" })).error).toBeNull();
    const before = await reactionCount(gatedPost);
    const notInSet = await other.client.from("reactions").insert({ moment_id: moment!.id, user_id: other.id, emoji: "💩" });
    expect(notInSet.error).toMatchObject({
      code: "23514",
      message: 'new row for relation "reactions" violates check constraint "reactions_emoji_in_set"',
    });
    const twice = await other.client.from("reactions").insert({ moment_id: moment!.id, user_id: other.id, emoji: "👏" });
    expect(twice.error).toMatchObject({
      code: "23505",
      message: 'duplicate key value violates unique constraint "reactions_one_per_emoji"',
    });
    expect(twice.status).toBe(409);
    const outsiders = await outsider.client.from("reactions").insert({ moment_id: moment!.id, user_id: outsider.id, emoji: "🔥" });
    expect(outsiders.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "reactions"' });
    const forged = await other.client
      .from("reactions")
      .insert({ moment_id: moment!.id, user_id: other.id, emoji: "🔥", room_id: open.id } as never);
    expect(forged.error).toMatchObject({ code: "42501", message: "permission denied for table reactions" });
    expect(await reactionCount(gatedPost)).toBe(before);
  });

  test("a reaction on a moment that no longer exists is refused as such", async () => {
    const { error } = await other.client.from("reactions").insert({ moment_id: crypto.randomUUID(), user_id: other.id, emoji: "🔥" });
    expect(error).toMatchObject({ code: "23503", message: "That comment no longer exists" });
  });

  test("people remove their own reactions, not others'", async () => {
    const { data: moment } = await comment(member, gatedPost, "remove me", 21);
    await other.client.from("reactions").insert({ moment_id: moment!.id, user_id: other.id, emoji: "😂" });
    expect((await member.client.from("reactions").delete().eq("moment_id", moment!.id).select("emoji")).data).toEqual([]);
    expect((await owner.client.from("reactions").delete().eq("moment_id", moment!.id).select("emoji")).data).toEqual([]);
    expect((await other.client.from("reactions").delete().eq("moment_id", moment!.id).select("emoji")).data).toEqual([{ emoji: "😂" }]);
  });

  test("the server (service role) reads every room's moments", async () => {
    const { data, error } = await serviceClient().from("moments").select("id").eq("post_id", gatedPost).limit(1);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });
});

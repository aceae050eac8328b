// The post page's moments through the real stack, as the page reads and writes them: pages in media
// order with general comments last (no gaps or repeats across the page boundary), one moment with
// its author and reactions, a refetch through a key, and the database's refusals mapped to the
// words the comment form and reactions show.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeProblem } from "../../lib/moments/errors";
import { getMoment, getMomentsPage, refetchMoments } from "../../lib/moments/queries";
import { keyOf } from "../../lib/moments/types";
import { momentMessages } from "../../lib/moments/rules";
import { adminQuery, anonClient } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

let owner: TestUser, member: TestUser, outsider: TestUser;
let room: { id: string; slug: string }, gated: { id: string; slug: string };
let postId: string, gatedPostId: string;

async function makePost(roomId: string, authorId: string, duration: number) {
  const [row] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'A track', 'embed', 'https://media.cuepoint-files.com/tone.wav', $3) returning id",
    [roomId, authorId, duration],
  );
  return row.id;
}

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all([
    signedInUser("moments-owner"),
    signedInUser("moments-member"),
    signedInUser("moments-outsider"),
  ]);
  room = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  await addMember(room.id, member.id);
  await addMember(gated.id, member.id);
  postId = await makePost(room.id, member.id, 120);
  gatedPostId = await makePost(gated.id, member.id, 120);
  // 7 timed moments (two at the same second) and 3 general comments.
  await adminQuery(
    `insert into public.moments (post_id, room_id, author_id, at_seconds, body)
     select $1, $2, $3, t, 'at ' || coalesce(t::text, 'general') from unnest(array[5, 1.5, 90, 30, 30, 60, 119, null, null, null]::numeric[]) as t`,
    [postId, room.id, member.id],
  );
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[room.id, gated.id]]);
  await deleteUsers(owner, member, outsider);
});

describe("reading", () => {
  test("pages in media order, general comments last, every moment once whatever the page size", async () => {
    const all = await getMomentsPage(anonClient(), postId, null, 100);
    expect(all.ok && all.data.next).toBeNull();
    const times = all.ok ? all.data.moments.map((m) => m.at_seconds) : [];
    expect(times).toEqual([1.5, 5, 30, 30, 60, 90, 119, null, null, null]);
    for (const size of [1, 3, 7, 8]) {
      const seen: string[] = [];
      let after = null;
      for (let pages = 0; pages < 20; pages++) {
        const page = await getMomentsPage(anonClient(), postId, after, size);
        if (!page.ok) throw new Error(page.error);
        seen.push(...page.data.moments.map((m) => m.id));
        if (!page.data.next) break;
        after = page.data.next;
      }
      expect(seen, `page size ${size}`).toEqual(all.ok ? all.data.moments.map((m) => m.id) : []);
    }
  });

  test("a moment comes with its author's profile and its reactions", async () => {
    const page = await getMomentsPage(member.client, postId, null, 1);
    const first = page.ok ? page.data.moments[0] : null;
    await member.client.from("reactions").insert({ moment_id: first!.id, user_id: member.id, emoji: "🔥" } as never);
    const moment = await getMoment(anonClient(), first!.id);
    expect(moment).toMatchObject({
      at_seconds: 1.5,
      author: { display_name: expect.any(String), ens_name: null },
      reactions: [{ emoji: "🔥", user_id: member.id }],
    });
  });

  test("a refetch through a key returns what is there up to it, and no further", async () => {
    const page = await getMomentsPage(anonClient(), postId, null, 4);
    if (!page.ok) throw new Error(page.error);
    const through = keyOf(page.data.moments[3]);
    const again = await refetchMoments(anonClient(), postId, through);
    expect(again.ok && again.data.map((m) => m.id)).toEqual(page.data.moments.map((m) => m.id));
  });

  test("a gated room's moments are not readable by outsiders or visitors", async () => {
    await member.client
      .from("moments")
      .insert({ post_id: gatedPostId, author_id: member.id, at_seconds: 3, body: "members only" } as never);
    for (const client of [anonClient(), outsider.client]) {
      const page = await getMomentsPage(client, gatedPostId, null);
      expect(page.ok && page.data.moments).toEqual([]);
    }
    const page = await getMomentsPage(member.client, gatedPostId, null);
    expect(page.ok && page.data.moments.map((m) => m.body)).toEqual(["members only"]);
  });
});

describe("refusals, in words", () => {
  const insert = (user: TestUser, values: Record<string, unknown>) =>
    user.client
      .from("moments")
      .insert({ post_id: postId, author_id: user.id, ...values } as never)
      .select("id");

  test("a time past the media's end", async () => {
    const { error } = await insert(member, { at_seconds: 121, body: "after the end" });
    expect(writeProblem(error!, "moment")).toEqual({ message: momentMessages.atPastEnd, field: "atSeconds" });
  });

  test("a negative time and an empty or 1001-character comment are refused by the database too", async () => {
    expect(writeProblem((await insert(member, { at_seconds: -1, body: "before" })).error!, "moment").field).toBe("atSeconds");
    expect(writeProblem((await insert(member, { at_seconds: 1, body: "   " })).error!, "moment").field).toBe("body");
    expect(writeProblem((await insert(member, { at_seconds: 1, body: "x".repeat(1001) })).error!, "moment").field).toBe("body");
  });

  test("commenting or reacting where one is not a member", async () => {
    const { error } = await insert(outsider, { at_seconds: 1, body: "drive-by" });
    expect(writeProblem(error!, "moment").message).toBe("Join the room to comment");
    const [target] = await adminQuery<{ id: string }>("select id from public.moments where post_id = $1 limit 1", [postId]);
    const reaction = await outsider.client.from("reactions").insert({ moment_id: target.id, user_id: outsider.id, emoji: "👏" } as never);
    expect(writeProblem(reaction.error!, "reaction").message).toBe("Join the room to react");
  });

  test("a second identical reaction, and an emoji not in the set", async () => {
    const [target] = await adminQuery<{ id: string }>("select id from public.moments where post_id = $1 and at_seconds = 90", [postId]);
    const react = (emoji: string) => member.client.from("reactions").insert({ moment_id: target.id, user_id: member.id, emoji } as never);
    expect((await react("😮")).error).toBeNull();
    expect(writeProblem((await react("😮")).error!, "reaction")).toEqual({
      message: "You already reacted with that emoji",
      field: "emoji",
    });
    expect(writeProblem((await react("💩")).error!, "reaction")).toEqual({ message: momentMessages.emojiNotInSet, field: "emoji" });
    const stored = await adminQuery("select emoji from public.reactions where moment_id = $1", [target.id]);
    expect(stored).toEqual([{ emoji: "😮" }]);
  });
});

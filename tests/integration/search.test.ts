// Searching posts and comments (lib/search/queries.ts over public.search_content) through the real
// REST API with supabase-js: accents folded both ways, best match first, pages by (rank, id) with
// nothing twice or missed, a gated room's comment only for its current member, anything typed
// harmless, and each result's link.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { searchContent } from "../../lib/search/queries";
import { anonClient } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

type User = Awaited<ReturnType<typeof signedInUser>>;
const word = `qelvorn${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let owner: User;
let member: User;
let outsider: User;
const roomIds: string[] = [];
let openPost = "";
let gatedComment = "";
let openComments: string[] = [];

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all([
    signedInUser("search-owner"),
    signedInUser("search-member"),
    signedInUser("search-outsider"),
  ]);
  const gate = { chain_id: 31337, contract_address: "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707", standard: "erc721" };
  const create = async (slug: string, gated: boolean) => {
    const { data, error } = await owner.client.rpc("create_room", { slug, name: slug, description: "", gate: gated ? gate : null });
    if (error || !data) throw new Error(`could not create ${slug}: ${error?.message}`);
    return { id: (data as { id: string }).id, slug };
  };
  const open = await create(`${word}-open`, false);
  const gated = await create(`${word}-gated`, true);
  roomIds.push(open.id, gated.id);
  await admin
    .from("memberships")
    .insert({ room_id: gated.id, user_id: member.id, role: "member", verified_at: new Date().toISOString() })
    .throwOnError();
  const { data: posts } = await admin
    .from("posts")
    .insert([
      { room_id: open.id, author_id: owner.id, title: `Crème brûlée ${word}`, media_kind: "embed", media_url: "https://vimeo.com/1" },
      { room_id: gated.id, author_id: owner.id, title: "Members only", media_kind: "embed", media_url: "https://vimeo.com/2" },
    ])
    .select("id, room_id")
    .throwOnError();
  openPost = posts!.find((p) => p.room_id === open.id)!.id;
  const gatedPost = posts!.find((p) => p.room_id === gated.id)!.id;
  // 25 comments in the open room, each saying the word a different number of times (so each ranks apart).
  const { data: comments } = await admin
    .from("moments")
    .insert(
      Array.from({ length: 25 }, (_, i) => ({
        post_id: openPost,
        author_id: owner.id,
        at_seconds: i,
        body: `${Array.from({ length: 1 + (i % 5) }, () => word).join(" ")} creme number ${i}`,
      })),
    )
    .select("id")
    .throwOnError();
  openComments = comments!.map((c) => c.id);
  const { data: secret } = await admin
    .from("moments")
    .insert({ post_id: gatedPost, author_id: owner.id, at_seconds: 3, body: `${word} secret` })
    .select("id")
    .single()
    .throwOnError();
  gatedComment = secret!.id;
});

afterAll(async () => {
  await admin.from("rooms").delete().in("id", roomIds);
  for (const user of [owner, member, outsider]) if (user) await admin.auth.admin.deleteUser(user.id);
});

describe("searching posts and comments", () => {
  test("accents are folded both ways: 'creme brulee' finds the post titled 'Crème brûlée', 'crème' the comments saying 'creme'", async () => {
    const post = await searchContent(anonClient(), `creme brulee ${word}`);
    expect(post.ok && post.data.items.map((item) => [item.kind, item.id, item.href])).toEqual([
      ["post", openPost, `/r/${word}-open/p/${openPost}`],
    ]);
    const comments = await searchContent(anonClient(), `crème ${word}`, { pageSize: 100 });
    expect(comments.ok && comments.data.items.filter((item) => item.kind === "comment").length).toBe(25);
  });

  test("pages by (rank, id): best first, every comment once, the next page from the cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof searchContent>> = await searchContent(anonClient(), word, { cursor, pageSize: 7 });
      if (!page.ok) throw new Error(page.error);
      seen.push(...page.data.items.map((item) => item.id));
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(seen.length).toBe(26); // the post and 25 comments
    expect(new Set(seen).size).toBe(26);
    expect([...openComments, openPost].sort()).toEqual([...seen].sort());
    // The comment saying the word five times outranks the one saying it once.
    expect(seen.indexOf(openComments[4])).toBeLessThan(seen.indexOf(openComments[0]));
  });

  test("a comment leads to its own address, with its post, room and time", async () => {
    const result = await searchContent(anonClient(), `${word} number 7`);
    const item = result.ok ? result.data.items.find((found) => found.id === openComments[7]) : undefined;
    expect(item).toMatchObject({
      kind: "comment",
      href: `/m/${openComments[7]}`,
      postId: openPost,
      roomSlug: `${word}-open`,
      atSeconds: 7,
    });
    expect(item?.snippet).toContain(`\uE000${word}\uE001`);
  });

  test("a gated room's comment is found by its current member only", async () => {
    const ids = async (client: ReturnType<typeof anonClient>) => {
      const result = await searchContent(client, `${word} secret`);
      return result.ok ? result.data.items.map((item) => item.id) : ["error"];
    };
    expect(await ids(member.client)).toEqual([gatedComment]);
    expect(await ids(outsider.client)).toEqual([]);
    expect(await ids(anonClient())).toEqual([]);
    // The membership lapses (its balance check is old): nothing of the room any more.
    await admin.from("memberships").update({ verified_at: "2020-01-01T00:00:00Z" }).eq("user_id", member.id).eq("room_id", roomIds[1]);
    expect(await ids(member.client)).toEqual([]);
  });

  test("anything typed is harmless; nothing typed finds nothing", async () => {
    for (const typed of ["", "   ", "'; drop table posts; --", '"unclosed', "a & | ! :* ( ) <->", "%_\\", "x".repeat(500)]) {
      const result = await searchContent(anonClient(), typed);
      expect(result.ok, typed).toBe(true);
    }
    const blank = await searchContent(anonClient(), "   ");
    expect(blank.ok && blank.data.items).toEqual([]);
    const { data, error } = await anonClient().rpc("search_content", { query: "!!! &" });
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });
});

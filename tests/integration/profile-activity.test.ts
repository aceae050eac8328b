// A profile's lists through REST, as the page reads them (lib/profiles/queries.ts): a signed-out
// visitor, another person and a member of the person's gated room get the same public rooms and the
// same posts and comments in them, page by page from the cursor; nothing of the gated room reaches
// anyone, not even its members; a comment hidden, held or deleted leaves the list.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { nextActivityCursor, type ActivityItem } from "@/lib/profiles/activity";
import { getProfileActivity, getProfileRooms } from "@/lib/profiles/queries";
import type { Database } from "@/types/database";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient } from "../helpers/stack";

let person: TestUser;
let owner: TestUser;
let gatedMember: TestUser;
let stranger: TestUser;
let open: { id: string; slug: string };
let gated: { id: string; slug: string };
const made: { posts: string[]; comments: string[]; gated: string[] } = { posts: [], comments: [], gated: [] };

const typed = (client: SupabaseClient) => client as unknown as SupabaseClient<Database>;

async function post(roomId: string, authorId: string, title: string, minutesAgo: number): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds, created_at)
     values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', 240, now() - make_interval(mins => $4)) returning id`,
    [roomId, authorId, title, minutesAgo],
  );
  return row.id;
}

async function comment(
  postId: string,
  authorId: string,
  body: string,
  minutesAgo: number,
  parentId: string | null = null,
): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    `insert into public.moments (post_id, author_id, parent_id, at_seconds, body, created_at)
     values ($1, $2, $3, 42, $4, now() - make_interval(mins => $5)) returning id`,
    [postId, authorId, parentId, body, minutesAgo],
  );
  return row.id;
}

/** Everything listed, read `pageSize` at a time from the cursor, as "Show more" reads it. */
async function everything(client: SupabaseClient, pageSize: number): Promise<ActivityItem[]> {
  const all: ActivityItem[] = [];
  let cursor = null;
  for (let pages = 0; pages < 50; pages++) {
    const page = await getProfileActivity(typed(client), person.id, cursor, pageSize);
    expect(page.ok).toBe(true);
    if (!page.ok) break;
    all.push(...page.data);
    cursor = nextActivityCursor(page.data, pageSize);
    if (!cursor) break;
  }
  return all;
}

beforeAll(async () => {
  [person, owner, gatedMember, stranger] = await Promise.all(
    ["prof-person", "prof-owner", "prof-gated", "prof-stranger"].map(signedInUser),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  await addMember(open.id, person.id, "moderator");
  await addMember(gated.id, person.id);
  await addMember(gated.id, gatedMember.id);

  const openPost = await post(open.id, person.id, "An open set", 60);
  const ownersPost = await post(open.id, owner.id, "The owner's track", 59);
  const gatedPost = await post(gated.id, person.id, "A gated set", 58);
  made.posts.push(openPost);
  for (let i = 0; i < 5; i++) made.comments.push(await comment(ownersPost, person.id, `open comment ${i}`, 50 - i));
  const ownersComment = await comment(ownersPost, owner.id, "owner asks", 40);
  made.comments.push(await comment(ownersPost, person.id, "open reply", 39, ownersComment));
  made.gated.push(gatedPost, await comment(gatedPost, person.id, "gated words only members read", 30));
});

afterAll(async () => {
  await deleteUsers(person, owner, gatedMember, stranger);
});

test("everyone sees the person's public rooms with their role there — never the gated one", async () => {
  for (const client of [anonClient(), stranger.client, gatedMember.client, person.client]) {
    const rooms = await getProfileRooms(typed(client), person.id);
    expect(rooms.ok && rooms.data.map(({ room, role }) => [room.slug, role])).toEqual([[open.slug, "moderator"]]);
  }
});

test("a visitor, a stranger, a gated room's member and the person see the same items, newest first, in pages", async () => {
  const expected = [...made.comments].reverse().concat(made.posts);
  const lists = await Promise.all(
    [anonClient(), stranger.client, gatedMember.client, person.client].map((client) => everything(client, 3)),
  );
  for (const list of lists) {
    expect(list.map((item) => item.id)).toEqual(expected);
    expect(list.some((item) => made.gated.includes(item.id) || item.room.slug === gated.slug)).toBe(false);
    expect(JSON.stringify(list)).not.toContain("gated words");
  }
  const [reply] = lists[0];
  expect(reply).toMatchObject({ kind: "comment", body: "open reply", atSeconds: 42, isReply: true, post: { title: "The owner's track" } });
  expect(lists[0].at(-1)).toMatchObject({ kind: "post", post: { id: made.posts[0], title: "An open set" }, room: { slug: open.slug } });
});

test("a comment hidden by reports, held for review, or deleted leaves everyone's list", async () => {
  const [hidden, held, deleted] = made.comments;
  await adminQuery("update public.moments set hidden_at = now() where id = $1", [hidden]);
  await adminQuery("update public.moments set held_at = now() where id = $1", [held]);
  await adminQuery("update public.moments set deleted_at = now(), body = '' where id = $1", [deleted]);
  for (const client of [anonClient(), person.client]) {
    const ids = (await everything(client, 20)).map((item) => item.id);
    expect(ids).not.toContain(hidden);
    expect(ids).not.toContain(held);
    expect(ids).not.toContain(deleted);
    expect(ids).toHaveLength(made.comments.length - 3 + made.posts.length);
  }
});

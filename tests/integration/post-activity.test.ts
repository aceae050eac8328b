// Comment counts and last activity through REST, as the app and an attacker read them: comments
// posted at once are all counted (the trigger's `count + 1` under the row's lock), a deleted one is
// counted out; a gated room's counts and activity reach only its members — not anon, not a signed-in
// outsider — and nobody writes them.
import { afterAll, beforeAll, expect, test } from "vitest";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient } from "../helpers/stack";

let owner: TestUser;
let members: TestUser[];
let outsider: TestUser;
let open: { id: string; slug: string };
let gated: { id: string; slug: string };
let openPost: string;
let gatedPost: string;

async function post(roomId: string, authorId: string, title: string): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds)
     values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', 240) returning id`,
    [roomId, authorId, title],
  );
  return row.id;
}

beforeAll(async () => {
  owner = await signedInUser("activity-owner");
  members = await Promise.all(["activity-a", "activity-b", "activity-c", "activity-d"].map(signedInUser));
  outsider = await signedInUser("activity-outsider");
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) for (const member of members) await addMember(room.id, member.id);
  openPost = await post(open.id, owner.id, "Open tone");
  gatedPost = await post(gated.id, owner.id, "Gated tone");
});

afterAll(async () => {
  await deleteUsers(owner, outsider, ...(members ?? []));
});

test("twenty comments sent at once by four members are twenty in the count; a deleted one is counted out", async () => {
  const sent = await Promise.all(
    members.flatMap((member) =>
      Array.from({ length: 5 }, (_, n) =>
        member.client
          .from("moments")
          .insert({ post_id: openPost, author_id: member.id, body: `at once ${n}` } as never)
          .select("id, created_at")
          .single(),
      ),
    ),
  );
  for (const { error } of sent) expect(error).toBeNull();
  const { data } = await anonClient().from("post_activity").select("comment_count, last_activity_at").eq("post_id", openPost).single();
  expect(data?.comment_count).toBe(20);
  const newest = Math.max(...sent.map(({ data: row }) => Date.parse((row as { created_at: string }).created_at)));
  expect(Date.parse(data!.last_activity_at)).toBe(newest);

  const first = sent[0].data as { id: string };
  const { error } = await members[0].client.from("moments").delete().eq("id", first.id);
  expect(error).toBeNull();
  const after = await members[1].client.from("post_activity").select("comment_count").eq("post_id", openPost).single();
  expect(after.data?.comment_count).toBe(19);

  const room = await anonClient().from("room_activity").select("post_count, last_activity_at").eq("room_id", open.id).single();
  expect(room.data?.post_count).toBe(1);
  expect(Date.parse(room.data!.last_activity_at)).toBe(newest);
});

test("the feed's query carries the count, for whoever may read the post", async () => {
  const { data, error } = await members[0].client
    .from("posts")
    .select("id, activity:post_activity(comment_count)")
    .eq("id", openPost)
    .single();
  expect(error).toBeNull();
  const activity = (data as { activity: unknown }).activity;
  expect(Array.isArray(activity) ? activity[0] : activity).toEqual({ comment_count: 19 });
});

test("a gated room's counts and activity reach its members only", async () => {
  const { error } = await members[0].client
    .from("moments")
    .insert({ post_id: gatedPost, author_id: members[0].id, body: "inside" } as never);
  expect(error).toBeNull();
  const member = await members[1].client.from("post_activity").select("comment_count").eq("post_id", gatedPost);
  expect(member.data).toEqual([{ comment_count: 1 }]);
  expect((await owner.client.from("room_activity").select("post_count").eq("room_id", gated.id)).data).toEqual([{ post_count: 1 }]);

  for (const client of [anonClient(), outsider.client]) {
    const posts = await client.from("post_activity").select("comment_count").eq("post_id", gatedPost);
    expect(posts.error).toBeNull();
    expect(posts.data).toEqual([]);
    const rooms = await client.from("room_activity").select("last_activity_at").eq("room_id", gated.id);
    expect(rooms.data).toEqual([]);
    const all = await client.from("post_activity").select("post_id").eq("room_id", gated.id);
    expect(all.data).toEqual([]);
  }
});

test("nobody writes a count through REST", async () => {
  for (const client of [anonClient(), outsider.client, members[0].client, owner.client]) {
    const inserted = await client.from("post_activity").insert({ post_id: gatedPost, room_id: gated.id, comment_count: 99 } as never);
    expect(inserted.error?.code).toBe("42501");
    const updated = await client
      .from("post_activity")
      .update({ comment_count: 0 } as never)
      .eq("post_id", openPost);
    expect(updated.error?.code).toBe("42501");
    const deleted = await client.from("room_activity").delete().eq("room_id", open.id);
    expect(deleted.error?.code).toBe("42501");
  }
  const { data } = await anonClient().from("post_activity").select("comment_count").eq("post_id", openPost).single();
  expect(data?.comment_count).toBe(19);
});

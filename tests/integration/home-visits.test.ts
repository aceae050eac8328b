// The home page's "new since your last visit", tried through REST as an attacker would: visits are
// written only by mark_room_visited, for the caller, in a room they belong to; my_rooms counts
// others' posts and comments since the caller's own last visit; a gated room's counts, session and
// who is here reach only its current members; live_now and top_moments never show a gated room to
// someone who may not read it (top_moments: to anyone).
import { afterAll, beforeAll, expect, test } from "vitest";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient } from "../helpers/stack";

let owner: TestUser;
let member: TestUser;
let other: TestUser;
let outsider: TestUser;
let open: { id: string; slug: string };
let gated: { id: string; slug: string };

type MyRoomRow = {
  room_id: string;
  slug: string;
  current: boolean;
  new_posts: number | null;
  new_comments: number | null;
  live_session_id: string | null;
  here_count: number;
};

async function myRooms(person: TestUser): Promise<MyRoomRow[]> {
  const { data, error } = await person.client.rpc("my_rooms", {});
  expect(error).toBeNull();
  return data as MyRoomRow[];
}

const roomOf = async (person: TestUser, roomId: string) => (await myRooms(person)).find((row) => row.room_id === roomId);

async function post(roomId: string, authorId: string, title: string, at = "now()"): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    `insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds, created_at)
     values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', 240, ${at}) returning id`,
    [roomId, authorId, title],
  );
  return row.id;
}

async function comment(postId: string, authorId: string, atSeconds: number | null, body: string, at = "now()") {
  await adminQuery(`insert into public.moments (post_id, author_id, at_seconds, body, created_at) values ($1, $2, $3, $4, ${at})`, [
    postId,
    authorId,
    atSeconds,
    body,
  ]);
}

beforeAll(async () => {
  [owner, member, other, outsider] = await Promise.all(["home-owner", "home-member", "home-other", "home-outsider"].map(signedInUser));
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, member.id);
    await addMember(room.id, other.id);
  }
  // Joined yesterday: what came since then is new until the first visit.
  await adminQuery("update public.memberships set joined_at = now() - interval '1 day' where room_id = any($1)", [[open.id, gated.id]]);
});

afterAll(async () => {
  await deleteUsers(owner, member, other, outsider);
});

test("nobody writes a visit through REST — not someone else's, not their own", async () => {
  for (const [person, user_id] of [
    [outsider, member.id],
    [member, member.id],
    [member, other.id],
  ] as const) {
    const inserted = await person.client.from("room_visits").insert({ user_id, room_id: open.id });
    expect(inserted.error).toMatchObject({ code: "42501" });
  }
  const anon = await anonClient().from("room_visits").select("*");
  expect(anon.error).toMatchObject({ code: "42501" });
  const anonMark = await anonClient().rpc("mark_room_visited", { target_room: open.id });
  expect(anonMark.error).toMatchObject({ code: "42501" });
  const outsiderMark = await outsider.client.rpc("mark_room_visited", { target_room: open.id });
  expect(outsiderMark.error).toMatchObject({ code: "42501", message: "Only members of this room keep track of their visits" });
});

test("others' posts and comments since the member's last visit are new; their own never are; the visit is theirs alone", async () => {
  const first = await post(open.id, other.id, "Since you joined");
  await comment(first, other.id, 12, "at twelve");
  await comment(first, member.id, 13, "my own");
  expect(await roomOf(member, open.id)).toMatchObject({ current: true, new_posts: 1, new_comments: 1 });

  const visited = await member.client.rpc("mark_room_visited", { target_room: open.id });
  expect(visited.error).toBeNull();
  expect(visited.data).toBeNull();
  expect(await roomOf(member, open.id)).toMatchObject({ new_posts: 0, new_comments: 0 });

  // After the visit: one post, two comments by someone else.
  const later = await post(open.id, other.id, "After your visit", "now() + interval '1 second'");
  await comment(later, other.id, 30, "thirty", "now() + interval '1 second'");
  await comment(first, owner.id, null, "general", "now() + interval '1 second'");
  expect(await roomOf(member, open.id)).toMatchObject({ new_posts: 1, new_comments: 2 });

  // The other member has not visited: everything since they joined, except their own.
  expect(await roomOf(other, open.id)).toMatchObject({ new_posts: 0, new_comments: 2 });

  // Each reads only their own visit; an update or delete through REST touches nothing.
  expect((await member.client.from("room_visits").select("user_id, room_id")).data).toEqual([{ user_id: member.id, room_id: open.id }]);
  expect((await other.client.from("room_visits").select("user_id")).data).toEqual([]);
  const moved = await member.client.from("room_visits").update({ seen_at: "2000-01-01T00:00:00Z" }).eq("user_id", member.id);
  expect(moved.error).toMatchObject({ code: "42501" });
  const removed = await other.client.from("room_visits").delete().eq("user_id", member.id);
  expect(removed.error).toMatchObject({ code: "42501" });
  const [stored] = await adminQuery<{ seen_at: Date }>("select seen_at from public.room_visits where user_id = $1 and room_id = $2", [
    member.id,
    open.id,
  ]);
  expect(stored.seen_at.getTime()).toBeGreaterThan(Date.now() - 60_000);
});

test("a gated room's counts, session and who is here reach its current members only", async () => {
  const secret = await post(gated.id, other.id, "Members only");
  for (let i = 0; i < 4; i += 1) await comment(secret, other.id, 20 + i, `gated ${i}`);
  await other.client.rpc("mark_here", { target_room: gated.id, tab: crypto.randomUUID() });
  const started = await owner.client.rpc("start_listening_session", { room_id: gated.id });
  expect(started.error).toBeNull();
  const sessionId = (started.data as { id: string }).id;

  expect(await roomOf(member, gated.id)).toMatchObject({
    current: true,
    new_posts: 1,
    new_comments: 4,
    live_session_id: sessionId,
    here_count: 1,
  });
  expect((await outsider.client.rpc("my_rooms", {})).data).toEqual([]);
  expect((await anonClient().rpc("my_rooms", {})).error).toMatchObject({ code: "42501" });

  // The member's balance check lapses: the room stays in their list, none of its activity does.
  await adminQuery("update public.memberships set verified_at = now() - interval '2 hours' where room_id = $1 and user_id = $2", [
    gated.id,
    member.id,
  ]);
  expect(await roomOf(member, gated.id)).toMatchObject({
    current: false,
    new_posts: null,
    new_comments: null,
    live_session_id: null,
    here_count: 0,
  });
  const lapsedMark = await member.client.rpc("mark_room_visited", { target_room: gated.id });
  expect(lapsedMark.error).toMatchObject({ code: "42501" });

  // Live now: the gated session for its current members only.
  const liveFor = async (client: TestUser["client"]) =>
    ((await client.rpc("live_now", { max_sessions: 50 })).data as { session_id: string }[]).map((row) => row.session_id);
  expect(await liveFor(other.client)).toContain(sessionId);
  for (const client of [member.client, outsider.client, anonClient()]) expect(await liveFor(client)).not.toContain(sessionId);

  // The week's moments: never the gated room's, whoever asks.
  for (const client of [other.client, owner.client, anonClient()]) {
    const { data, error } = await client.rpc("top_moments", { max_moments: 24 });
    expect(error).toBeNull();
    expect((data as { room_slug: string }[]).map((row) => row.room_slug)).not.toContain(gated.slug);
  }
  await adminQuery("update public.listening_sessions set ended_at = now() where id = $1", [sessionId]);
});

const newestTimedCommentsLookedAt = 5000;

test("the week's busiest moment of a public room comes first, at its first second, with its newest comment", async () => {
  // One more comment than the busiest moment the database already holds this week, within ten seconds.
  const before = await anonClient().rpc("top_moments", { max_moments: 1 });
  const count = ((before.data as { comments: number }[] | null)?.[0]?.comments ?? 0) + 1;
  const busy = await post(open.id, other.id, "Busy track");
  await adminQuery(
    `insert into public.moments (post_id, author_id, at_seconds, body, created_at)
     select $1, $2, 61 + ((i - 1) % 9), 'comment ' || i, now() - make_interval(secs => $3 - i) from generate_series(1, $3) i`,
    [busy, other.id, count],
  );
  const { data, error } = await anonClient().rpc("top_moments", { max_moments: 24 });
  expect(error).toBeNull();
  expect((data as unknown[])[0]).toMatchObject({
    post_id: busy,
    room_slug: open.slug,
    at_seconds: 61,
    // top_moments looks at the week's 5000 newest timed comments: after a suite that wrote more, the
    // busiest moment before this one was counted to 5000, and so is this one (all of its comments newest).
    comments: Math.min(count, newestTimedCommentsLookedAt),
    sample_body: `comment ${count}`,
  });
});

// DJ turns and votes to skip through /rest/v1 with the real supabase-js (lib/sessions/turns.ts), as
// several people at once: two votes that together reach the share skip the track exactly once; many
// votes at once count each person once; a DJ leaving mid-turn while others vote passes the turn
// once; a vote from someone listening on their own is refused in words; many pages saying a turn ran
// out pass it once; the page's view of the row (whose turn, who is next, the tally).
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { markHere } from "@/lib/realtime/here-rows";
import { skipTallyOf, tallyText, turnActions, turnsView } from "@/lib/sessions/turns";
import type { SessionRow } from "@/lib/sessions/types";
import type { BrowserData } from "@/lib/supabase/data-client";
import type { Database } from "@/types/database";
import { adminQuery } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

let owner: TestUser, a: TestUser, b: TestUser, c: TestUser, d: TestUser;
let room: { id: string };
let sessionId: string;
const posts: string[] = [];

const data = (user: TestUser) => user.client as unknown as BrowserData;
const raw = (user: TestUser) => user.client as unknown as SupabaseClient<Database>;
// (bigint columns read as numbers, as PostgREST sends them)
const row = async () =>
  (
    await adminQuery<SessionRow>("select *, track::float8 as track, turn::float8 as turn from public.listening_sessions where id = $1", [
      sessionId,
    ])
  )[0];
const here = (user: TestUser, following = true) =>
  markHere(data(user), room.id, `${user.id.slice(0, 8)}-0000-4000-8000-000000000001`, { sessionId, following });
const ok = <T>(answer: { ok: true; data: T } | { ok: false; error: string }): T => {
  if (!answer.ok) throw new Error(answer.error);
  return answer.data;
};

beforeAll(async () => {
  [owner, a, b, c, d] = await Promise.all(["dj-owner", "dj-a", "dj-b", "dj-c", "dj-d"].map((label) => signedInUser(label)));
  room = await createRoom(owner.id, "public");
  for (const person of [a, b, c, d]) await addMember(room.id, person.id);
  for (const [title, seconds] of [
    ["One", 200],
    ["Two", 200],
    ["Three", 200],
    ["Long", 4000],
  ] as const) {
    const [inserted] = await adminQuery<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871', $4) returning id",
      [room.id, owner.id, title, seconds],
    );
    posts.push(inserted.id);
  }
  const { error: rulesError } = await raw(owner).rpc("set_session_rules", {
    room_id: room.id,
    mode: "dj_turns",
    turn_max_seconds: 300,
    share: 0.5,
  });
  if (rulesError) throw rulesError;
  const { data: started, error } = await raw(owner).rpc("start_listening_session", { room_id: room.id });
  if (error) throw error;
  sessionId = (started as { id: string }).id;
  for (const person of [owner, a, b, c, d]) await here(person);
});

afterAll(async () => {
  await deleteUsers(owner, a, b, c, d);
});

test("the owner alone sets the rules, and a member is told so", async () => {
  const { error } = await raw(a).rpc("set_session_rules", { room_id: room.id, mode: "host", turn_max_seconds: 300, share: 0.5 });
  expect(error?.message).toBe("Only the owner decides how listening sessions run");
});

test("DJs join in order; a post longer than a turn is refused in words; the page sees whose turn it is and who is next", async () => {
  expect(await turnActions.join(data(a), sessionId, posts[3])).toEqual({
    ok: false,
    error: "Turns last up to 5 minutes in this room — pick a shorter post",
  });
  ok(await turnActions.join(data(a), sessionId, posts[0]));
  ok(await turnActions.join(data(b), sessionId, posts[1]));
  const view = turnsView(await row(), c.id);
  expect([view.djId, view.next?.userId, view.waitlist.map((entry) => entry.userId), view.place]).toEqual([a.id, b.id, [b.id], null]);
  expect(turnsView(await row(), b.id).place).toBe(1);
});

test("two votes at once that reach the share skip the track exactly once", async () => {
  // Listening along while a plays: owner, b, c, d — four, so two votes skip.
  const before = await row();
  const answers = await Promise.all([c, d].map((person) => turnActions.voteToSkip(data(person), sessionId, before.track)));
  expect(answers.map((answer) => answer.ok)).toEqual([true, true]);
  const after = await row();
  expect([after.host_id, after.turn, after.track]).toEqual([b.id, before.turn + 1, before.track + 1]);
  expect([after.skip_votes, after.skip_needed]).toEqual([0, 0]);
  expect(turnsView(after, a.id).waitlist).toEqual([{ userId: a.id, postId: null }]);
});

test("many votes at once: each person counts once, and one vote short does not skip", async () => {
  // b plays; owner, a, c, d listen along: two of four skip. The same person voting three times at once counts once.
  const before = await row();
  const answers = await Promise.all([0, 1, 2].map(() => turnActions.voteToSkip(data(c), sessionId, before.track)));
  expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
  expect(answers.filter((answer) => !answer.ok).map((answer) => !answer.ok && answer.error)).toEqual([
    "You already voted on this track",
    "You already voted on this track",
  ]);
  const after = await row();
  expect([after.host_id, after.skip_votes, after.skip_needed]).toEqual([b.id, 1, 2]);
  expect(tallyText(skipTallyOf(after, c.id), 0.5)).toBe("1 of 2 to skip");
  expect(skipTallyOf(after, c.id).voted).toBe(true);
});

test("a vote from someone listening on their own is refused in words and counts nothing", async () => {
  await here(d, false);
  const before = await row();
  expect(await turnActions.voteToSkip(data(d), sessionId, before.track)).toEqual({
    ok: false,
    error: "Only people listening along can vote",
  });
  expect((await row()).skip_votes).toBe(before.skip_votes);
  await here(d, true);
});

test("a DJ leaving mid-turn while a vote comes in: the turn passes once", async () => {
  ok(await turnActions.pick(data(a), sessionId, posts[2]));
  ok(await turnActions.join(data(c), sessionId, posts[0]));
  const before = await row();
  expect(before.host_id).toBe(b.id);
  const [left, vote] = await Promise.all([
    turnActions.leave(data(b), sessionId),
    turnActions.voteToSkip(data(owner), sessionId, before.track),
  ]);
  expect(left.ok).toBe(true);
  const after = await row();
  // Whichever came first, b's turn ended once: a (first in the list) plays, c is next, b is gone.
  expect([after.host_id, after.turn]).toEqual([a.id, before.turn + 1]);
  expect(turnsView(after, b.id).waitlist.map((entry) => entry.userId)).toEqual([c.id]);
  // Or the vote came after the leave had moved the track on: it is refused, and counts nothing.
  if (!vote.ok) expect(vote.error).toBe("That track has already moved on");
});

test("many pages saying the turn ran out pass it once, and only when it has", async () => {
  const before = await row();
  const early = await Promise.all([owner, b, c, d].map((person) => turnActions.endIfOver(data(person), sessionId, before.turn)));
  expect(early.map((answer) => answer.ok && answer.data.turn)).toEqual([before.turn, before.turn, before.turn, before.turn]);
  await adminQuery("update public.listening_sessions set turn_ends_at = now() - interval '1 second' where id = $1", [sessionId]);
  await Promise.all([owner, b, c, d].map((person) => turnActions.endIfOver(data(person), sessionId, before.turn)));
  const after = await row();
  expect([after.host_id, after.turn]).toEqual([c.id, before.turn + 1]);
});

test("moderators reorder and remove; a member may not", async () => {
  ok(await turnActions.join(data(b), sessionId, posts[1]));
  ok(await turnActions.join(data(d), sessionId, posts[2]));
  expect(await turnActions.move(data(b), sessionId, d.id, 1)).toEqual({
    ok: false,
    error: "Only moderators and the owner reorder the waitlist",
  });
  const moved = ok(await turnActions.move(data(owner), sessionId, d.id, 1));
  expect(turnsView(moved, owner.id).waitlist.map((entry) => entry.userId)).toEqual([d.id, a.id, b.id]);
  const removed = ok(await turnActions.remove(data(owner), sessionId, a.id));
  expect(turnsView(removed, owner.id).waitlist.map((entry) => entry.userId)).toEqual([d.id, b.id]);
});

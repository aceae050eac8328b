// The session page's queue writes (lib/sessions/queue-writes.ts) through /rest/v1 with the real
// supabase-js, as each kind of person: the host queues, members suggest, the host reorders and
// accepts, people withdraw their own suggestions, moderators remove; every refusal comes back in
// words and changes nothing. Also the picker's title search.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { queueMessages } from "@/lib/sessions/queue-errors";
import { addToQueue, queueDetails, removeFromQueue, searchRoomPosts, updateQueueEntry } from "@/lib/sessions/queue-writes";
import type { Database } from "@/types/database";
import { adminQuery } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

let host: TestUser, member: TestUser, other: TestUser, moderator: TestUser, outsider: TestUser;
let room: { id: string };
let sessionId: string;
const posts: Record<string, string> = {};

const data = (user: TestUser) => user.client as unknown as SupabaseClient<Database>;
const rows = async () =>
  adminQuery<{ post_id: string; status: string; sort_key: number; added_by: string }>(
    "select post_id, status, sort_key, added_by from public.session_queue where session_id = $1 order by status, sort_key",
    [sessionId],
  );

beforeAll(async () => {
  [host, member, other, moderator, outsider] = await Promise.all(
    ["sq-host", "sq-member", "sq-other", "sq-moderator", "sq-outsider"].map((label) => signedInUser(label)),
  );
  room = await createRoom(host.id, "public");
  await addMember(room.id, member.id);
  await addMember(room.id, other.id);
  await addMember(room.id, moderator.id, "moderator");
  for (const title of ["Night drive", "Morning 100%_mix", "Dusk", "Dawn", "Noon"]) {
    const [row] = await adminQuery<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871') returning id",
      [room.id, host.id, title],
    );
    posts[title] = row.id;
  }
  const { data: started, error } = await data(host).rpc("start_listening_session", { room_id: room.id });
  if (error) throw error;
  sessionId = (started as { id: string }).id;
});

afterAll(async () => {
  await deleteUsers(host, member, other, moderator, outsider);
});

test("the host's posts are queued, in order; a member's are suggestions; a post goes in once", async () => {
  const first = await addToQueue(data(host), { sessionId, postId: posts["Night drive"], userId: host.id });
  const second = await addToQueue(data(host), { sessionId, postId: posts["Dusk"], userId: host.id });
  expect(first.ok && first.data.status).toBe("queued");
  expect(second.ok && second.data.sort_key).toBeGreaterThan(first.ok ? first.data.sort_key : Infinity);
  const suggested = await addToQueue(data(member), { sessionId, postId: posts["Dawn"], userId: member.id });
  expect(suggested.ok && suggested.data.status).toBe("suggested");

  expect(await addToQueue(data(other), { sessionId, postId: posts["Night drive"], userId: other.id })).toEqual({
    ok: false,
    error: queueMessages.duplicate,
  });
  expect(await addToQueue(data(outsider), { sessionId, postId: posts["Noon"], userId: outsider.id })).toEqual({
    ok: false,
    error: queueMessages.membersOnly,
  });
  expect(await rows()).toHaveLength(3);
});

test("only the host reorders and accepts; a member's try changes nothing and says who may", async () => {
  const [dawn] = await adminQuery<{ id: string }>("select id from public.session_queue where session_id = $1 and post_id = $2", [
    sessionId,
    posts["Dawn"],
  ]);
  expect(await updateQueueEntry(data(member), dawn.id, { sort_key: -5, status: "queued" })).toEqual({
    ok: false,
    error: queueMessages.onlyHostOrders,
  });
  expect((await rows()).find((row) => row.post_id === posts["Dawn"])?.status).toBe("suggested");

  const accepted = await updateQueueEntry(data(host), dawn.id, { sort_key: -5, status: "queued" });
  expect(accepted.ok && accepted.data).toMatchObject({ status: "queued", sort_key: -5 });
  const queued = (await rows()).filter((row) => row.status === "queued").map((row) => row.post_id);
  expect(queued).toEqual([posts["Dawn"], posts["Night drive"], posts["Dusk"]]);
});

test("people withdraw their own suggestions, not others'; moderators remove anything", async () => {
  const mine = await addToQueue(data(member), { sessionId, postId: posts["Noon"], userId: member.id });
  if (!mine.ok) throw new Error(mine.error);
  expect(await removeFromQueue(data(other), mine.data.id)).toEqual({ ok: false, error: queueMessages.onlyAllowedRemove });
  expect(await removeFromQueue(data(member), mine.data.id)).toEqual({ ok: true, data: null });

  const [dusk] = await adminQuery<{ id: string }>("select id from public.session_queue where session_id = $1 and post_id = $2", [
    sessionId,
    posts["Dusk"],
  ]);
  expect(await removeFromQueue(data(member), dusk.id)).toEqual({ ok: false, error: queueMessages.onlyAllowedRemove });
  expect(await removeFromQueue(data(moderator), dusk.id)).toEqual({ ok: true, data: null });
  expect((await rows()).map((row) => row.post_id).sort()).toEqual([posts["Dawn"], posts["Night drive"]].sort());
});

test("the picker finds posts by title, with % and _ taken literally; the queue's titles and names are read", async () => {
  const all = await searchRoomPosts(data(member), room.id, "");
  expect(all.ok && all.data).toHaveLength(5);
  const literal = await searchRoomPosts(data(member), room.id, "100%_");
  expect(literal.ok && literal.data.map((post) => post.title)).toEqual(["Morning 100%_mix"]);
  const none = await searchRoomPosts(data(member), room.id, "%");
  expect(none.ok && none.data.map((post) => post.title)).toEqual(["Morning 100%_mix"]);
  const details = await queueDetails(data(member), [posts["Dusk"]], [member.id]);
  expect(details.posts).toEqual({ [posts["Dusk"]]: "Dusk" });
  expect(Object.keys(details.people)).toEqual([member.id]);
});

test("an ended session's queue takes nothing more", async () => {
  const { error } = await data(host).rpc("end_listening_session", { session_id: sessionId });
  expect(error).toBeNull();
  expect(await addToQueue(data(host), { sessionId, postId: posts["Noon"], userId: host.id })).toEqual({
    ok: false,
    error: queueMessages.sessionEnded,
  });
});

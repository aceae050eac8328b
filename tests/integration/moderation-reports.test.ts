// Reports and held comments end to end, as each person through supabase-js: members report through
// report_content (lib/moderation/reports.ts); three established members hide an item, two do not,
// and members of less than a day do not count; a hidden item and a held comment are invisible to
// other members over REST and never reach them on the room's live channel (a hidden one leaves
// their pages as a delete), while its author and the moderators still read it; the moderators'
// topic signals the queue; removal, dismissal and approval through the app's wrappers.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { addBlockedTerm } from "../../lib/moderation/held";
import {
  approveComment,
  dismissReports,
  moderationQueue,
  moderationTopic,
  removeContent,
  reportContent,
} from "../../lib/moderation/reports";
import { roomTopic } from "../../lib/realtime/room-channel";
import { adminQuery, anonClient, anonKey, apiUrl, roomEpoch, userJwt } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

vi.setConfig({ testTimeout: 60_000 });

interface Received {
  event: string;
  payload: { operation?: string; record?: Record<string, unknown> | null; old_record?: Record<string, unknown> | null } & Record<
    string,
    unknown
  >;
}

let owner: TestUser, moderator: TestUser, author: TestUser, newcomer: TestUser;
let members: TestUser[];
let room: { id: string };
const clients: SupabaseClient[] = [];

async function join(user: TestUser, topic: string) {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    accessToken: async () => userJwt(user.id, user.email),
  });
  clients.push(client);
  await client.realtime.setAuth();
  const channel: RealtimeChannel = client.channel(topic, { config: { private: true } });
  const got: Received[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Received));
  const status = await new Promise<string>((resolve) => channel.subscribe((s) => resolve(s)));
  return { got, status };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A marker comment by the owner, then wait until `receiver` has it: everything sent before it has arrived. */
async function settle(receiver: { got: Received[] }, postId: string): Promise<void> {
  const body = `marker ${crypto.randomUUID()}`;
  await adminQuery("insert into public.moments (post_id, author_id, body) values ($1, $2, $3)", [postId, owner.id, body]);
  await waitFor("the marker", () => receiver.got.some((m) => m.payload.record?.body === body));
}

async function newPost(title: string): Promise<string> {
  const { data, error } = await author.client
    .from("posts")
    .insert({ room_id: room.id, author_id: author.id, title, media_kind: "embed", media_url: "https://vimeo.com/76979871" })
    .select("id")
    .single();
  if (error) throw error;
  return data.id;
}

const seen = async (client: SupabaseClient, table: "posts" | "moments", id: string) =>
  ((await client.from(table).select("id").eq("id", id)).data ?? []).length;

beforeAll(async () => {
  const people = await Promise.all(
    ["rep-owner", "rep-mod", "rep-author", "rep-new", "rep-a", "rep-b", "rep-c"].map((label) => signedInUser(label)),
  );
  [owner, moderator, author, newcomer, ...members] = people;
  room = await createRoom(owner.id, "public");
  await addMember(room.id, moderator.id, "moderator");
  for (const person of [author, newcomer, ...members]) await addMember(room.id, person.id);
  // Established members joined a week ago; the newcomer an hour ago.
  await adminQuery("update public.memberships set joined_at = now() - interval '7 days' where room_id = $1 and user_id <> $2", [
    room.id,
    newcomer.id,
  ]);
  await adminQuery("update public.memberships set joined_at = now() - interval '1 hour' where room_id = $1 and user_id = $2", [
    room.id,
    newcomer.id,
  ]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  if (room) await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, moderator, author, newcomer, ...(members ?? []));
});

describe("reporting", () => {
  test("a member reports once, never their own item; an outsider and a visitor cannot report", async () => {
    const postId = await newPost("Once");
    const first = await reportContent(members[0].client, { postId, category: "spam", note: "same link everywhere" });
    expect(first.ok && first.data.status).toBe("open");
    expect(await reportContent(members[0].client, { postId, category: "hate" })).toEqual({
      ok: false,
      error: "You've already reported this post",
    });
    expect(await reportContent(author.client, { postId, category: "spam" })).toEqual({
      ok: false,
      error: "You can't report your own post",
    });
    const outsider = await signedInUser("rep-outsider");
    try {
      expect(await reportContent(outsider.client, { postId, category: "spam" })).toEqual({
        ok: false,
        error: "Join the room to report what's in it",
      });
    } finally {
      await deleteUsers(outsider);
    }
    const visitor = await reportContent(anonClient(), { postId, category: "spam" });
    expect(visitor.ok).toBe(false);
    // Each reporter reads their own report only; the moderators read the room's.
    expect((await members[0].client.from("reports").select("id").eq("post_id", postId)).data).toHaveLength(1);
    expect((await members[1].client.from("reports").select("id").eq("post_id", postId)).data).toHaveLength(0);
    expect((await author.client.from("reports").select("id").eq("post_id", postId)).data).toHaveLength(0);
    expect((await moderator.client.from("reports").select("id").eq("post_id", postId)).data).toHaveLength(1);
  });
});

describe("the threshold (3 distinct members of at least a day)", () => {
  test("two established members and a newcomer do not hide a post; the third established member does — for everyone but its author and the moderators, over REST and live", async () => {
    const postId = await newPost("Threshold");
    const other = await join(members[2], roomTopic(room.id, await roomEpoch(room.id)));
    const visitor = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    clients.push(visitor);
    const mods = await join(moderator, moderationTopic(room.id, await roomEpoch(room.id)));
    expect([other.status, mods.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);

    for (const reporter of [members[0], members[1], newcomer]) {
      expect((await reportContent(reporter.client, { postId, category: "spam" })).ok).toBe(true);
    }
    expect(await seen(members[2].client, "posts", postId)).toBe(1);
    expect(await seen(anonClient(), "posts", postId)).toBe(1);

    expect((await reportContent(owner.client, { postId, category: "harassment" })).ok).toBe(true);
    // Hidden now: the others read nothing of it, through REST…
    expect(await seen(members[2].client, "posts", postId)).toBe(0);
    expect(await seen(anonClient(), "posts", postId)).toBe(0);
    expect(await seen(members[0].client, "posts", postId)).toBe(0);
    // …while its author and the moderators still do, marked hidden.
    const own = await author.client.from("posts").select("id, hidden_at").eq("id", postId).single();
    expect(own.data?.hidden_at).toEqual(expect.any(String));
    expect(await seen(moderator.client, "posts", postId)).toBe(1);
    expect(await seen(owner.client, "posts", postId)).toBe(1);
    // …and on the channel it leaves as a delete that carries no words.
    await waitFor("the hidden post's delete", () =>
      other.got.some((m) => m.event === "posts" && m.payload.operation === "DELETE" && m.payload.old_record?.id === postId),
    );
    const gone = other.got.find((m) => m.event === "posts" && m.payload.operation === "DELETE" && m.payload.old_record?.id === postId)!;
    expect(gone.payload.record).toBeNull();
    expect(JSON.stringify(gone.payload)).not.toContain("Threshold");
    // The moderators' topic said so (ids only), and the queue has it with its four reports.
    await waitFor("the queue signal", () => mods.got.some((m) => m.event === "queue" && m.payload.post_id === postId));
    const queue = await moderationQueue(moderator.client, room.id);
    expect(queue.ok).toBe(true);
    const item = queue.ok ? queue.data.items.find((i) => i.itemId === postId) : undefined;
    expect(item).toMatchObject({ kind: "post", postTitle: "Threshold", reportCount: 4, categories: ["harassment", "spam"] });
    expect(item?.hiddenAt).toEqual(expect.any(String));
    expect(await moderationQueue(members[0].client, room.id)).toEqual({
      ok: false,
      error: "Only the room's owner and moderators can see the moderation queue",
    });

    // Dismissed: back for everyone, arriving live as new.
    expect(await dismissReports(moderator.client, { postId, reason: "A remix, not spam" })).toEqual({ ok: true, data: 4 });
    expect(await seen(members[2].client, "posts", postId)).toBe(1);
    await waitFor("the post again", () =>
      other.got.some((m) => m.event === "posts" && m.payload.operation === "INSERT" && m.payload.record?.id === postId),
    );
    const log = await adminQuery<{ action: string; actor_id: string | null }>(
      "select action, actor_id from public.moderation_log where post_id = $1 order by created_at",
      [postId],
    );
    expect(log).toEqual([
      { action: "post_hidden", actor_id: null },
      { action: "report_dismissed", actor_id: moderator.id },
    ]);
  });

  test("a comment reported by three established members is hidden from the others live, and removed by a moderator in one step", async () => {
    const postId = await newPost("Comments");
    const { data: comment } = await author.client
      .from("moments")
      .insert({ post_id: postId, author_id: author.id, body: "something vile" })
      .select("id")
      .single();
    const other = await join(newcomer, roomTopic(room.id, await roomEpoch(room.id)));
    for (const [i, reporter] of members.entries()) {
      expect(await seen(newcomer.client, "moments", comment!.id)).toBe(1);
      expect((await reportContent(reporter.client, { momentId: comment!.id, category: "hate" })).ok).toBe(true);
      expect(await seen(newcomer.client, "moments", comment!.id)).toBe(i < 2 ? 1 : 0);
    }
    expect(await seen(author.client, "moments", comment!.id)).toBe(1);
    expect(await seen(moderator.client, "moments", comment!.id)).toBe(1);
    await waitFor("the comment's delete", () =>
      other.got.some((m) => m.event === "moments" && m.payload.operation === "DELETE" && m.payload.old_record?.id === comment!.id),
    );

    expect(await removeContent(members[0].client, { momentId: comment!.id })).toEqual({
      ok: false,
      error: "Only the room's owner and moderators can remove what others posted",
    });
    expect(await removeContent(moderator.client, { momentId: comment!.id, reason: "Hate speech" })).toEqual({ ok: true, data: null });
    expect(await seen(author.client, "moments", comment!.id)).toBe(0);
    const reports = await members[0].client
      .from("reports")
      .select("status, resolved_by")
      .eq("reporter_id", members[0].id)
      .eq("category", "hate");
    expect(reports.data).toEqual([{ status: "actioned", resolved_by: moderator.id }]);
    const log = await adminQuery<{ action: string; reason: string }>(
      "select action, reason from public.moderation_log where moment_id = $1 and actor_id = $2 order by action",
      [comment!.id, moderator.id],
    );
    expect(log).toEqual([
      { action: "comment_removed", reason: "Hate speech" },
      { action: "report_actioned", reason: "3 open reports" },
    ]);
  });

  test("three reports sent at the same moment still hide the item: they are counted one after another", async () => {
    const postId = await newPost("At once");
    const answers = await Promise.all(members.map((reporter) => reportContent(reporter.client, { postId, category: "spam" })));
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true]);
    expect(await seen(newcomer.client, "posts", postId)).toBe(0);
    const hidden = await adminQuery<{ n: number }>(
      "select count(*)::int as n from public.moderation_log where post_id = $1 and action = 'post_hidden'",
      [postId],
    );
    expect(hidden).toEqual([{ n: 1 }]);
  });

  test("reports from members who joined within the day do not count, however many", async () => {
    const postId = await newPost("Newcomers");
    const fresh = await Promise.all(["rep-fresh-1", "rep-fresh-2", "rep-fresh-3"].map((label) => signedInUser(label)));
    try {
      for (const person of fresh) await addMember(room.id, person.id);
      for (const person of fresh) expect((await reportContent(person.client, { postId, category: "spam" })).ok).toBe(true);
      expect(await seen(members[0].client, "posts", postId)).toBe(1);
    } finally {
      await deleteUsers(...fresh);
    }
  });
});

describe("held comments", () => {
  test("a comment with a blocked term reaches only its author and the moderators, until approved", async () => {
    expect((await addBlockedTerm(owner.client, { roomId: room.id, term: "Buy Now" })).ok).toBe(true);
    expect(await addBlockedTerm(moderator.client, { roomId: room.id, term: "scam" })).toEqual({
      ok: false,
      error: "Only the room's owner changes its blocked terms",
    });
    const postId = await newPost("Held");
    const other = await join(members[0], roomTopic(room.id, await roomEpoch(room.id)));
    const mods = await join(moderator, moderationTopic(room.id, await roomEpoch(room.id)));

    const { data: held, error } = await author.client
      .from("moments")
      .insert({ post_id: postId, author_id: author.id, body: "BUY   NÓW while it lasts" })
      .select("id, held_at")
      .single();
    expect(error).toBeNull();
    expect(held?.held_at).toEqual(expect.any(String));
    const { data: fine } = await author.client
      .from("moments")
      .insert({ post_id: postId, author_id: author.id, body: "buy nowhere" })
      .select("id, held_at")
      .single();
    expect(fine?.held_at).toBeNull();

    expect(await seen(members[0].client, "moments", held!.id)).toBe(0);
    expect(await seen(anonClient(), "moments", held!.id)).toBe(0);
    expect(await seen(author.client, "moments", held!.id)).toBe(1);
    expect(await seen(moderator.client, "moments", held!.id)).toBe(1);
    await waitFor("the held signal", () => mods.got.some((m) => m.payload.moment_id === held!.id && m.payload.what === "held"));
    await settle(other, postId);
    expect(other.got.some((m) => m.payload.record?.id === fine!.id)).toBe(true);
    expect(other.got.some((m) => m.payload.record?.id === held!.id || m.payload.old_record?.id === held!.id)).toBe(false);

    const queue = await moderationQueue(owner.client, room.id);
    expect(queue.ok && queue.data.items.find((i) => i.momentId === held!.id)).toMatchObject({
      kind: "comment",
      body: "BUY   NÓW while it lasts",
      reportCount: 0,
    });

    expect(await approveComment(author.client, { momentId: held!.id })).toEqual({
      ok: false,
      error: "Only the room's owner and moderators can approve held comments",
    });
    expect(await approveComment(moderator.client, { momentId: held!.id })).toEqual({ ok: true, data: null });
    expect(await seen(members[0].client, "moments", held!.id)).toBe(1);
    await waitFor("the approved comment", () =>
      other.got.some((m) => m.payload.operation === "INSERT" && m.payload.record?.id === held!.id),
    );
  });
});

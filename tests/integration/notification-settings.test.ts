// Notification settings and mutes through the API, as people meet them: supabase-js as each person,
// through the app's own reads and writes (lib/notifications/settings-data.ts). Each person reads and
// changes only their own settings and mutes; a muted room or thread stops replies, mentions,
// reactions and sessions from it while the rest keep arriving; a kind switched off stops that kind;
// someone who shares no room with the recipient arrives held back (not counted as unread) unless
// the recipient switched that off. (supabase/migrations/20261130000200_mentions_and_notifications.sql)
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defaultNotificationSettings, notificationKinds, settingsFromRow } from "../../lib/notifications/settings";
import {
  isMuted,
  listMutedPlaces,
  readNotificationSettings,
  removeMute,
  saveNotificationSettings,
  setMuted,
} from "../../lib/notifications/settings-data";
import type { Database } from "../../types/database";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient } from "../helpers/stack";

type Db = SupabaseClient<Database>;
const db = (user: TestUser) => user.client as unknown as Db;

let owner: TestUser, person: TestUser, other: TestUser, actor: TestUser, stranger: TestUser;
let personName: string;
let quiet: { id: string; slug: string }, busy: { id: string; slug: string }, far: { id: string; slug: string };
const posts: Record<string, string> = {};
const comments: Record<string, string> = {};

async function makePost(roomId: string, authorId: string, title: string): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871') returning id",
    [roomId, authorId, title],
  );
  return row.id;
}

async function comment(user: TestUser, postId: string, body: string, parentId?: string): Promise<string> {
  const { data, error } = await user.client
    .from("moments")
    .insert({ post_id: postId, author_id: user.id, body, ...(parentId ? { parent_id: parentId } : {}) })
    .select("id")
    .single();
  if (error) throw new Error(`comment: ${error.message}`);
  return data.id as string;
}

async function react(user: TestUser, momentId: string, emoji = "🔥") {
  const { error } = await user.client.from("reactions").insert({ moment_id: momentId, user_id: user.id, emoji });
  if (error) throw new Error(`react: ${error.message}`);
}

/** The person's notifications written since `since`, as they read them (their own rows only). */
async function notificationsSince(user: TestUser, since: string) {
  const { data, error } = await user.client
    .from("notifications")
    .select("kind, room_id, post_id, moment_id, held")
    .gte("created_at", since)
    .order("created_at");
  if (error) throw error;
  return data as { kind: string; room_id: string | null; post_id: string | null; moment_id: string | null; held: boolean }[];
}

async function now(): Promise<string> {
  const [row] = await adminQuery<{ now: string }>("select clock_timestamp()::text as now");
  return row.now;
}

async function reset(user: TestUser) {
  await adminQuery("delete from public.notification_settings where user_id = $1", [user.id]);
  await adminQuery("delete from public.notification_mutes where user_id = $1", [user.id]);
  await adminQuery("delete from public.notifications where user_id = $1", [user.id]);
}

beforeAll(async () => {
  [owner, person, other, actor, stranger] = await Promise.all(
    ["ns-owner", "ns-person", "ns-other", "ns-actor", "ns-stranger"].map((label) => signedInUser(label)),
  );
  [{ username: personName }] = await adminQuery<{ username: string }>("select username from public.profiles where id = $1", [person.id]);
  [quiet, busy] = await Promise.all([createRoom(owner.id, "public"), createRoom(owner.id, "public")]);
  far = await createRoom(stranger.id, "public");
  for (const room of [quiet, busy]) {
    await addMember(room.id, person.id);
    await addMember(room.id, actor.id);
  }
  await addMember(quiet.id, other.id);
  posts.quiet = await makePost(quiet.id, owner.id, "Quiet one");
  posts.busy = await makePost(busy.id, owner.id, "Busy one");
  posts.busy2 = await makePost(busy.id, owner.id, "Busy two");
  comments.quiet = await comment(person, posts.quiet, "mine in the quiet room");
  comments.busy = await comment(person, posts.busy, "mine in the busy room");
  comments.busy2 = await comment(person, posts.busy2, "mine on the second post");
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[quiet?.id, busy?.id, far?.id].filter(Boolean)]);
  await deleteUsers(owner, person, other, actor, stranger);
});

describe("each person's own settings and mutes", () => {
  test("no row reads as the defaults; saving makes the row, saving again changes it", async () => {
    await reset(person);
    expect(await readNotificationSettings(db(person))).toEqual({ ok: true, data: defaultNotificationSettings });
    const first = await saveNotificationSettings(db(person), person.id, {
      inApp: ["reply", "mention"],
      email: ["mention"],
      holdStrangers: false,
    });
    expect(first).toEqual({ ok: true, data: null });
    expect(await readNotificationSettings(db(person))).toEqual({
      ok: true,
      data: { inApp: ["reply", "mention"], email: ["mention"], holdStrangers: false },
    });
    const second = await saveNotificationSettings(db(person), person.id, { inApp: [...notificationKinds], email: [], holdStrangers: true });
    expect(second.ok).toBe(true);
    const rows = await adminQuery<{ muted_kinds: string[]; email_kinds: string[]; hold_strangers: boolean }>(
      "select muted_kinds, email_kinds, hold_strangers from public.notification_settings where user_id = $1",
      [person.id],
    );
    expect(rows).toEqual([{ muted_kinds: [], email_kinds: [], hold_strangers: true }]);
  });

  test("another person's settings are invisible and untouchable; anon gets nothing", async () => {
    await reset(person);
    await saveNotificationSettings(db(person), person.id, { inApp: ["reply"], email: ["reply"], holdStrangers: false });

    const seen = await other.client.from("notification_settings").select("user_id").eq("user_id", person.id);
    expect(seen).toMatchObject({ error: null, data: [] });
    const changed = await other.client
      .from("notification_settings")
      .update({ muted_kinds: [], hold_strangers: true })
      .eq("user_id", person.id)
      .select("user_id");
    expect(changed.data ?? []).toEqual([]);
    const forged = await other.client.from("notification_settings").insert({ user_id: person.id, muted_kinds: ["reply"] });
    expect(forged.error?.code).toBe("42501");
    // Saving in someone else's name through the app's own write is refused the same way.
    expect((await saveNotificationSettings(db(other), person.id, defaultNotificationSettings)).ok).toBe(false);
    const removed = await other.client.from("notification_settings").delete().eq("user_id", person.id);
    expect(removed.error?.code).toBe("42501");
    // Nobody deletes settings through the API, not even their owner (no row means the defaults).
    expect((await person.client.from("notification_settings").delete().eq("user_id", person.id)).error?.code).toBe("42501");

    const anon = anonClient();
    const anonRead = await anon.from("notification_settings").select("user_id");
    expect(anonRead.data ?? []).toEqual([]);
    expect(anonRead.error?.code).toBe("42501");
    expect((await anon.from("notification_settings").insert({ user_id: person.id })).error?.code).toBe("42501");

    const rows = await adminQuery<{ muted_kinds: string[]; hold_strangers: boolean }>(
      "select muted_kinds, hold_strangers from public.notification_settings where user_id = $1",
      [person.id],
    );
    expect(rows).toEqual([{ muted_kinds: notificationKinds.filter((kind) => kind !== "reply").sort(), hold_strangers: false }]);
    expect(settingsFromRow({ ...rows[0], email_kinds: ["reply"] }).inApp).toEqual(["reply"]);
  });

  test("a person's mutes: theirs to list and undo; nobody else sees, makes or removes them", async () => {
    await reset(person);
    expect(await setMuted(db(person), person.id, { roomId: quiet.id }, true)).toEqual({ ok: true, data: { muted: true } });
    // Muting twice is not an error, and keeps one row.
    expect((await setMuted(db(person), person.id, { roomId: quiet.id }, true)).ok).toBe(true);
    expect((await setMuted(db(person), person.id, { postId: posts.busy }, true)).ok).toBe(true);
    expect(await isMuted(db(person), { roomId: quiet.id })).toBe(true);
    expect(await isMuted(db(person), { roomId: busy.id })).toBe(false);
    expect(await isMuted(db(person), { postId: posts.busy })).toBe(true);

    const listed = await listMutedPlaces(db(person));
    expect(listed.ok && listed.data.map(({ kind, name, href, roomName }) => ({ kind, name, href, roomName }))).toEqual([
      { kind: "post", name: "Busy one", href: `/r/${busy.slug}/p/${posts.busy}`, roomName: `Room ${busy.slug}` },
      { kind: "room", name: `Room ${quiet.slug}`, href: `/r/${quiet.slug}`, roomName: `Room ${quiet.slug}` },
    ]);
    const [muteId] = (
      await adminQuery<{ id: string }>("select id from public.notification_mutes where user_id = $1 and room_id = $2", [
        person.id,
        quiet.id,
      ])
    ).map((row) => row.id);

    // Another person: sees none, cannot forge one in the person's name, cannot remove theirs.
    expect((await other.client.from("notification_mutes").select("id").eq("user_id", person.id)).data).toEqual([]);
    expect(await isMuted(db(other), { roomId: quiet.id })).toBe(false);
    const forged = await other.client.from("notification_mutes").insert({ user_id: person.id, room_id: busy.id });
    expect(forged.error?.code).toBe("42501");
    const removed = await other.client.from("notification_mutes").delete().eq("id", muteId).select("id");
    expect(removed.data).toEqual([]);
    expect((await removeMute(db(other), muteId)).ok).toBe(true); // a no-op: the policy sees no row of theirs
    expect(
      (
        await other.client
          .from("notification_mutes")
          .update({ room_id: busy.id } as never)
          .eq("id", muteId)
      ).error?.code,
    ).toBe("42501");
    const anon = anonClient();
    expect((await anon.from("notification_mutes").select("id")).data ?? []).toEqual([]);
    expect((await anon.from("notification_mutes").insert({ user_id: person.id, room_id: busy.id })).error?.code).toBe("42501");
    expect(await adminQuery("select 1 from public.notification_mutes where user_id = $1", [person.id])).toHaveLength(2);

    // Their own: unmuted by id (the account page) and by target (the room's page).
    expect((await removeMute(db(person), muteId)).ok).toBe(true);
    expect(await isMuted(db(person), { roomId: quiet.id })).toBe(false);
    expect(await setMuted(db(person), person.id, { postId: posts.busy }, false)).toEqual({ ok: true, data: { muted: false } });
    expect(await adminQuery("select 1 from public.notification_mutes where user_id = $1", [person.id])).toHaveLength(0);
  });

  test("muting something that is gone is said in words", async () => {
    const gone = "00000000-0000-4000-8000-00000000dead";
    expect(await setMuted(db(person), person.id, { roomId: gone }, true)).toEqual({ ok: false, error: "That room no longer exists." });
    expect(await setMuted(db(person), person.id, { postId: gone }, true)).toEqual({ ok: false, error: "That post no longer exists." });
  });
});

describe("what reaches a person", () => {
  test("a muted room: no replies, mentions, reactions or sessions from it; the other room's keep arriving, and so does news of their role", async () => {
    await reset(person);
    expect((await setMuted(db(person), person.id, { roomId: quiet.id }, true)).ok).toBe(true);
    const since = await now();
    for (const [room, post] of [
      [quiet, posts.quiet],
      [busy, posts.busy],
    ] as const) {
      const key = room === quiet ? "quiet" : "busy";
      await comment(actor, post, "an answer", comments[key]);
      await comment(actor, post, `hello @${personName}`);
      await react(actor, comments[key]);
      const started = await owner.client.rpc("start_listening_session", { room_id: room.id, post_id: post });
      expect(started.error).toBeNull();
    }
    // Not a place's chatter: the owner makes them a moderator of the muted room.
    expect(
      (await owner.client.from("memberships").update({ role: "moderator" }).eq("room_id", quiet.id).eq("user_id", person.id)).error,
    ).toBeNull();

    const got = await notificationsSince(person, since);
    expect(got.filter((n) => n.room_id === quiet.id).map((n) => n.kind)).toEqual(["role_changed"]);
    expect(
      got
        .filter((n) => n.room_id === busy.id)
        .map((n) => n.kind)
        .sort(),
    ).toEqual(["mention", "reaction", "reply", "session_started"]);
    // Someone else in the muted room still hears it.
    const otherGot = await notificationsSince(other, since);
    expect(otherGot.filter((n) => n.room_id === quiet.id).map((n) => n.kind)).toContain("session_started");

    // Unmuted, the room notifies again.
    expect((await setMuted(db(person), person.id, { roomId: quiet.id }, false)).ok).toBe(true);
    const after = await now();
    await comment(actor, posts.quiet, "another answer", comments.quiet);
    expect((await notificationsSince(person, after)).map((n) => n.kind)).toEqual(["reply"]);
  });

  test("a muted thread: nothing from that post; the room's other posts keep arriving", async () => {
    await reset(person);
    expect((await setMuted(db(person), person.id, { postId: posts.busy }, true)).ok).toBe(true);
    const since = await now();
    await comment(actor, posts.busy, "on the muted thread", comments.busy);
    await comment(actor, posts.busy, `@${personName} look`);
    await react(actor, comments.busy, "👏");
    await comment(actor, posts.busy2, "on the other thread", comments.busy2);
    await react(actor, comments.busy2, "👏");
    const got = await notificationsSince(person, since);
    expect(got.every((n) => n.post_id === posts.busy2)).toBe(true);
    expect(got.map((n) => n.kind).sort()).toEqual(["reaction", "reply"]);
  });

  test("a kind switched off stops that kind only", async () => {
    await reset(person);
    const off = notificationKinds.filter((kind) => kind !== "reaction");
    expect((await saveNotificationSettings(db(person), person.id, { inApp: off, email: [], holdStrangers: true })).ok).toBe(true);
    const since = await now();
    await react(actor, comments.busy2, "😂");
    await comment(actor, posts.busy2, "still answering", comments.busy2);
    expect((await notificationsSince(person, since)).map((n) => n.kind)).toEqual(["reply"]);

    // Switched back on, reactions arrive again.
    expect((await saveNotificationSettings(db(person), person.id, defaultNotificationSettings)).ok).toBe(true);
    const later = await now();
    await react(actor, comments.busy2, "😮");
    expect((await notificationsSince(person, later)).map((n) => n.kind)).toEqual(["reaction"]);
  });

  test("someone who shares no room with them is held back, and not counted — unless they switched that off", async () => {
    await reset(person);
    const unread = async () => (await person.client.rpc("unread_notification_count")).data as number;
    expect(await unread()).toBe(0);
    const mention = async (title: string) => {
      const { error } = await stranger.client.from("posts").insert({
        room_id: far.id,
        author_id: stranger.id,
        title,
        media_kind: "embed",
        media_url: "https://vimeo.com/76979871",
        body: `what do you think, @${personName}?`,
      });
      if (error) throw new Error(`post: ${error.message}`);
    };

    const since = await now();
    await mention("Held back");
    expect(await notificationsSince(person, since)).toEqual([expect.objectContaining({ kind: "mention", room_id: far.id, held: true })]);
    expect(await unread()).toBe(0);

    expect((await saveNotificationSettings(db(person), person.id, { ...defaultNotificationSettings, holdStrangers: false })).ok).toBe(true);
    const later = await now();
    await mention("Let through");
    expect(await notificationsSince(person, later)).toEqual([expect.objectContaining({ kind: "mention", room_id: far.id, held: false })]);
    expect(await unread()).toBe(1);
  });
});

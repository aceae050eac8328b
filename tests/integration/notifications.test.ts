// Notifications through the real supabase-js against the stack: each person reads only their own
// (through my_notifications and the table), may change nothing but read_at, marks one or all read;
// and the private channel `user:{id}` carries `notification` to its owner within a second of a reply
// written by someone else, while another person's join of it is refused.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { getNotificationsPage, getUnreadCount } from "@/lib/notifications/queries";
import { nextCursor } from "@/lib/notifications/paging";
import { userTopic } from "@/lib/notifications/user-channel";
import { describeNotification } from "@/lib/notifications/wording";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonKey, apiUrl } from "../helpers/stack";

vi.setConfig({ testTimeout: 60_000 });

let ada: TestUser, bea: TestUser, cal: TestUser;
let room: { id: string; slug: string };
let postId: string;
const clients: SupabaseClient[] = [];

async function comment(user: TestUser, body: string, parentId: string | null = null, atSeconds: number | null = 30): Promise<string> {
  const { data, error } = await user.client
    .from("moments")
    .insert(
      parentId
        ? { post_id: postId, author_id: user.id, body, parent_id: parentId }
        : { post_id: postId, author_id: user.id, body, at_seconds: atSeconds },
    )
    .select("id")
    .single();
  if (error) throw error;
  return data.id;
}

const notificationsOf = (user: TestUser) =>
  adminQuery<{ id: string; kind: string; read_at: string | null; actor_id: string }>(
    "select id, kind, read_at, actor_id from public.notifications where user_id = $1 order by created_at desc",
    [user.id],
  );

/** Joins `user:{topic owner}` as `user`, as the bell does; resolves with the join's outcome and collects what arrives. */
async function join(user: TestUser, topicOwner: TestUser) {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    accessToken: async () => user.accessToken,
  });
  clients.push(client);
  await client.realtime.setAuth();
  const channel: RealtimeChannel = client.channel(userTopic(topicOwner.id), { config: { private: true } });
  const got: { event: string; payload: Record<string, unknown>; at: number }[] = [];
  channel.on("broadcast", { event: "*" }, (message) =>
    got.push({ event: message.event, payload: message.payload as Record<string, unknown>, at: Date.now() }),
  );
  const first = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, error) => resolve({ status, error })),
  );
  return { channel, got, ...first };
}

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  [ada, bea, cal] = await Promise.all(["nt-ada", "nt-bea", "nt-cal"].map((label) => signedInUser(label)));
  room = await createRoom(ada.id, "public");
  await addMember(room.id, bea.id);
  await addMember(room.id, cal.id);
  const { data, error } = await ada.client
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: ada.id,
      title: "Notified tone",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 120,
    })
    .select("id")
    .single();
  if (error) throw error;
  postId = data.id;
});

afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
  await adminQuery("delete from public.rooms where id = $1", [room?.id]);
  await deleteUsers(ada, bea, cal);
});

describe("reading and marking", () => {
  test("a reply by someone else is Ada's alone to read, in words, with a link to the reply", async () => {
    const parent = await comment(ada, "The synth pad at 0:30");
    const reply = await comment(bea, "Agreed, gorgeous", parent);
    const page = await getNotificationsPage(ada.client);
    expect(page.ok).toBe(true);
    const mine = page.ok ? page.data.find((n) => n.momentId === reply) : undefined;
    expect(mine).toMatchObject({
      kind: "reply",
      readAt: null,
      held: false,
      excerpt: "Agreed, gorgeous",
      postTitle: "Notified tone",
      parentId: parent,
    });
    expect(describeNotification(mine!)).toMatchObject({ rest: "replied to your comment", href: `/m/${reply}` });

    // Nobody else reads it: not through the function, not through the table.
    for (const other of [bea, cal]) {
      const theirs = await getNotificationsPage(other.client);
      expect(theirs.ok && theirs.data.some((n) => n.id === mine!.id)).toBe(false);
      const direct = await other.client.from("notifications").select("id").eq("id", mine!.id);
      expect(direct).toMatchObject({ error: null, data: [] });
    }
  });

  test("a person may change only read_at of their own, and write none", async () => {
    const [row] = await notificationsOf(ada);
    const kind = await ada.client.from("notifications").update({ kind: "mention" }).eq("id", row.id).select("id");
    expect(kind.error?.code).toBe("42501");
    const actor = await ada.client.from("notifications").update({ actor_id: ada.id }).eq("id", row.id).select("id");
    expect(actor.error?.code).toBe("42501");
    // Someone else's read_at: no row of theirs is reachable.
    const others = await bea.client.from("notifications").update({ read_at: new Date().toISOString() }).eq("id", row.id).select("id");
    expect(others).toMatchObject({ error: null, data: [] });
    const forged = await bea.client.from("notifications").insert({ user_id: ada.id, kind: "reply", actor_id: bea.id } as never);
    expect(forged.error?.code).toBe("42501");
    expect((await notificationsOf(ada))[0]).toMatchObject({ kind: row.kind, read_at: null, actor_id: bea.id });

    const own = await ada.client.from("notifications").update({ read_at: new Date().toISOString() }).eq("id", row.id).select("id");
    expect(own).toMatchObject({ error: null, data: [{ id: row.id }] });
    expect((await notificationsOf(ada))[0].read_at).not.toBeNull();
  });

  test("mark one read, then all; the unread count follows", async () => {
    const parent = await comment(ada, "Second thought");
    await comment(bea, "Reply one", parent);
    await comment(cal, "Reply two", parent);
    const before = await getUnreadCount(ada.client);
    expect(before).toBe(2);
    const [newest] = await notificationsOf(ada);
    const one = await ada.client.rpc("mark_notifications_read", { ids: [newest.id] });
    expect(one).toMatchObject({ error: null, data: 1 });
    expect(await getUnreadCount(ada.client)).toBe(1);
    // Someone else's ids mark nothing.
    const [bit] = await notificationsOf(ada);
    expect(await bea.client.rpc("mark_notifications_read", { ids: [bit.id] })).toMatchObject({ error: null, data: 0 });
    const all = await ada.client.rpc("mark_notifications_read", {});
    expect(all).toMatchObject({ error: null, data: 1 });
    expect(await getUnreadCount(ada.client)).toBe(0);
    expect((await notificationsOf(ada)).every((n) => n.read_at !== null)).toBe(true);
  });

  test("pages by cursor, newest first, without repeats or gaps", async () => {
    // 23 at once, as the database writes them (written here directly: a person may comment only so fast).
    await adminQuery(
      `insert into public.notifications (user_id, kind, actor_id, room_id, post_id, data, created_at)
       select $1, 'mention', $2, $3, $4, '{}', now() - make_interval(secs => i) from generate_series(1, 23) i`,
      [bea.id, ada.id, room.id, postId],
    );
    const first = await getNotificationsPage(bea.client);
    expect(first.ok && first.data.length).toBe(20);
    const cursor = first.ok ? nextCursor(first.data) : null;
    expect(cursor).not.toBeNull();
    const second = await getNotificationsPage(bea.client, { cursor });
    expect(second.ok && second.data.length).toBe(3);
    const ids = [...(first.ok ? first.data : []), ...(second.ok ? second.data : [])].map((n) => n.id);
    expect(new Set(ids).size).toBe(23);
    expect(ids).toEqual((await notificationsOf(bea)).map((n) => n.id));
    expect(second.ok && nextCursor(second.data)).toBeNull();
  });
});

describe("held back", () => {
  test("a mention from someone who shares no room is held: listed apart, not counted", async () => {
    const stranger = await signedInUser("nt-stranger");
    try {
      const theirs = await createRoom(stranger.id, "public");
      const post = await stranger.client
        .from("posts")
        .insert({
          room_id: theirs.id,
          author_id: stranger.id,
          title: "Stranger's tone",
          media_kind: "embed",
          media_url: "https://vimeo.com/76979871",
        })
        .select("id")
        .single();
      if (post.error) throw post.error;
      const [{ username }] = await adminQuery<{ username: string }>("select username from public.profiles where id = $1", [cal.id]);
      const before = await getUnreadCount(cal.client);
      const said = await stranger.client
        .from("moments")
        .insert({ post_id: post.data.id, author_id: stranger.id, body: `@${username} you would like this`, at_seconds: null })
        .select("id")
        .single();
      if (said.error) throw said.error;

      expect(await getUnreadCount(cal.client)).toBe(before);
      const main = await getNotificationsPage(cal.client);
      expect(main.ok && main.data.some((n) => n.momentId === said.data.id)).toBe(false);
      const held = await getNotificationsPage(cal.client, { held: true });
      const found = held.ok ? held.data.find((n) => n.momentId === said.data.id) : undefined;
      expect(found).toMatchObject({ kind: "mention", held: true, excerpt: `@${username} you would like this` });
      expect(describeNotification(found!).sentence).toMatch(/ mentioned you in a comment$/);
      await adminQuery("delete from public.rooms where id = $1", [theirs.id]);
    } finally {
      await deleteUsers(stranger);
    }
  });
});

describe("the channel user:{id}", () => {
  test("its owner hears a reply within a second, and hears marks as read", async () => {
    const mine = await join(ada, ada);
    expect(mine.status).toBe("SUBSCRIBED");
    const parent = await comment(ada, "Listen for this");
    const written = Date.now();
    const reply = await comment(bea, "Heard it", parent);
    await waitFor("the notification", () => mine.got.some((m) => m.event === "notification"));
    const heard = mine.got.find((m) => m.event === "notification")!;
    expect(heard.at - written).toBeLessThan(1_000);
    const [row] = await notificationsOf(ada);
    expect(heard.payload).toMatchObject({ id: row.id, kind: "reply" });
    expect((await adminQuery("select 1 from public.notifications where id = $1 and moment_id = $2", [row.id, reply])).length).toBe(1);

    await ada.client.rpc("mark_notifications_read", { ids: [row.id] });
    await waitFor("the read message", () => mine.got.some((m) => m.event === "notifications_read"));
    expect(mine.got.find((m) => m.event === "notifications_read")!.payload).toMatchObject({ read: true });
  });

  test("another person's join of someone's channel is refused, and hears nothing", async () => {
    const spy = await join(cal, ada);
    expect(spy.status).toBe("CHANNEL_ERROR");
    expect(spy.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: ${userTopic(ada.id)}`);
    const owner = await join(ada, ada);
    const parent = await comment(ada, "One more");
    await comment(bea, "And another", parent);
    await waitFor("the owner's notification", () => owner.got.some((m) => m.event === "notification"));
    expect(spy.got).toEqual([]);
  });
});

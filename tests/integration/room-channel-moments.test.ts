// A room's live channel end to end: people write moments and reactions through /rest/v1, the
// database's triggers broadcast each change on `room:{room id}`, and supabase-js clients joined to
// that private channel receive them — members of a gated room only, anyone in a public room; a
// client's own broadcast is refused; an ended membership is announced, and after the next token
// the former member receives nothing more.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { roomTopic } from "../../lib/realtime/room-channel";
import { adminQuery, anonKey, apiUrl, roomEpoch, userJwt } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";

vi.setConfig({ testTimeout: 60_000 });

interface Received {
  event: string;
  payload: {
    id?: string;
    schema?: string;
    table?: string;
    operation?: string;
    record?: Record<string, unknown> | null;
    old_record?: Record<string, unknown> | null;
  } & Record<string, unknown>;
}

let owner: TestUser, writer: TestUser, listener: TestUser, outsider: TestUser;
let open: { id: string }, gated: { id: string };
let openPost: string, gatedPost: string;
const clients: SupabaseClient[] = [];

/** A client whose Realtime connection uses `token()` (a fresh token each time realtime-js asks), or anon. */
function realtimeClient(token?: () => string): SupabaseClient {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    ...(token ? { accessToken: async () => token() } : {}),
  });
  clients.push(client);
  return client;
}

/** Joins the room's private channel as the app does; resolves with the join's outcome and collects what arrives. */
async function join(client: SupabaseClient, roomId: string) {
  await client.realtime.setAuth();
  // The room's current topic, as the app learns it (it moves on when access narrows).
  const channel: RealtimeChannel = client.channel(roomTopic(roomId, await roomEpoch(roomId)), {
    config: { private: true, broadcast: { ack: true } },
  });
  const got: Received[] = [];
  const statuses: string[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Received));
  const first = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, error) => {
      statuses.push(status);
      resolve({ status, error });
    }),
  );
  return { channel, got, statuses, ...first };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Writes a marker moment (as the database owner) and waits until `receiver` has it: everything sent before it has arrived. */
async function settle(receiver: { got: Received[] }, roomId: string, postId: string): Promise<void> {
  const body = `marker ${crypto.randomUUID()}`;
  await adminQuery("insert into public.moments (post_id, author_id, body) values ($1, $2, $3)", [postId, owner.id, body]);
  await waitFor(`the marker on room:${roomId}`, () => receiver.got.some((m) => m.payload.record?.body === body));
}

const tokenFor = (user: TestUser) => () => userJwt(user.id, user.email);

beforeAll(async () => {
  [owner, writer, listener, outsider] = await Promise.all(
    ["live-owner", "live-writer", "live-listener", "live-outsider"].map((label) => signedInUser(label)),
  );
  open = await createRoom(owner.id, "public");
  gated = await createRoom(owner.id, "gated");
  for (const room of [open, gated]) {
    await addMember(room.id, writer.id);
    await addMember(room.id, listener.id);
  }
  const post = async (roomId: string) =>
    (
      await adminQuery<{ id: string }>(
        "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'Live', 'embed', 'https://vimeo.com/1', 300) returning id",
        [roomId, writer.id],
      )
    )[0].id;
  openPost = await post(open.id);
  gatedPost = await post(gated.id);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[open?.id, gated?.id].filter(Boolean)]);
  await deleteUsers(owner, writer, listener, outsider);
});

describe("a room's channel carries its moments and reactions", () => {
  test("a member of a gated room receives a moment's INSERT, UPDATE and DELETE and its reactions, in order, with the row", async () => {
    const room = await join(realtimeClient(tokenFor(listener)), gated.id);
    expect(room.status).toBe("SUBSCRIBED");

    const { data: moment, error } = await writer.client
      .from("moments")
      .insert({ post_id: gatedPost, author_id: writer.id, at_seconds: 102, body: "the drop" })
      .select("id")
      .single();
    expect(error).toBeNull();
    await writer.client.from("moments").update({ body: "the drop!" }).eq("id", moment!.id);
    await listener.client.from("reactions").insert({ moment_id: moment!.id, user_id: listener.id, emoji: "🔥" });
    await listener.client.from("reactions").delete().eq("moment_id", moment!.id).eq("user_id", listener.id);
    await writer.client.from("moments").delete().eq("id", moment!.id);
    await waitFor("five changes", () => room.got.length === 5);

    expect(room.got.map((m) => [m.event, m.payload.operation])).toEqual([
      ["moments", "INSERT"],
      ["moments", "UPDATE"],
      ["reactions", "INSERT"],
      ["reactions", "DELETE"],
      ["moments", "DELETE"],
    ]);
    const [inserted, updated, reacted, unreacted, deleted] = room.got;
    expect(inserted.payload).toMatchObject({
      schema: "public",
      table: "moments",
      old_record: null,
      record: { id: moment!.id, room_id: gated.id, post_id: gatedPost, author_id: writer.id, at_seconds: 102, body: "the drop" },
    });
    expect(inserted.payload.id).toEqual(expect.any(String));
    // old_record names the row (and what it belongs to), never its words: an edit or a delete
    // leaves nothing of what was said on the channel.
    const ids = { id: moment!.id, room_id: gated.id, post_id: gatedPost, author_id: writer.id, session_id: null, parent_id: null };
    expect(updated.payload).toMatchObject({ record: { body: "the drop!" } });
    expect(updated.payload.old_record).toEqual(ids);
    expect(reacted.payload).toMatchObject({
      table: "reactions",
      old_record: null,
      record: { moment_id: moment!.id, user_id: listener.id, emoji: "🔥", room_id: gated.id },
    });
    expect(unreacted.payload).toMatchObject({
      record: null,
      old_record: { moment_id: moment!.id, user_id: listener.id, room_id: gated.id },
    });
    expect(unreacted.payload.old_record).not.toHaveProperty("emoji");
    expect(deleted.payload).toMatchObject({ record: null });
    expect(deleted.payload.old_record).toEqual(ids);
  });

  test("a non-member's (and anon's) join of a gated room's channel is refused, and they receive nothing", async () => {
    const member = await join(realtimeClient(tokenFor(listener)), gated.id);
    const refused = await join(realtimeClient(tokenFor(outsider)), gated.id);
    const anon = await join(realtimeClient(), gated.id);
    expect(refused.status).toBe("CHANNEL_ERROR");
    expect(refused.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: room:${gated.id}`);
    expect(anon.status).toBe("CHANNEL_ERROR");
    await writer.client.from("moments").insert({ post_id: gatedPost, author_id: writer.id, body: "members only" });
    await settle(member, gated.id, gatedPost);
    expect(member.got.some((m) => m.payload.record?.body === "members only")).toBe(true);
    expect(refused.got).toEqual([]);
    expect(anon.got).toEqual([]);
  });

  test("anyone, signed in or not, receives a public room's changes", async () => {
    const anon = await join(realtimeClient(), open.id);
    const visitor = await join(realtimeClient(tokenFor(outsider)), open.id);
    expect([anon.status, visitor.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
    await writer.client.from("moments").insert({ post_id: openPost, author_id: writer.id, at_seconds: 7, body: "for everyone" });
    await waitFor("both receive it", () => [anon, visitor].every((r) => r.got.some((m) => m.payload.record?.body === "for everyone")));
  });

  test("a client's broadcast on a room's channel is refused: no ack, and no one else receives it", async () => {
    const forger = await join(realtimeClient(tokenFor(writer)), gated.id);
    const member = await join(realtimeClient(tokenFor(listener)), gated.id);
    const fake = { table: "moments", operation: "INSERT", record: { body: "forged" } };
    expect(await forger.channel.send({ type: "broadcast", event: "moments", payload: fake }, { timeout: 1500 })).toBe("timed out");
    await settle(member, gated.id, gatedPost);
    expect(member.got.filter((m) => m.payload.record?.body === "forged")).toEqual([]);
  });
});

describe("when a membership ends", () => {
  test("the member receives the 'memberships' DELETE at once, then the channel moves on without them: nothing more reaches their socket, even before its next token", async () => {
    const leaver = await signedInUser("live-leaver");
    try {
      await addMember(gated.id, leaver.id);
      const leaverClient = realtimeClient(tokenFor(leaver));
      const room = await join(leaverClient, gated.id);
      const stays = await join(realtimeClient(tokenFor(listener)), gated.id);
      expect(room.status).toBe("SUBSCRIBED");
      const closed: string[] = [];
      room.channel.on("system", {}, (message: { status?: string; message?: string }) =>
        closed.push(`${message.status}: ${message.message}`),
      );
      const oldTopic = room.channel.topic.replace(/^realtime:/, "");

      await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [gated.id, leaver.id]);
      await waitFor("the memberships event, then the move", () => room.got.some((m) => m.event === "access"));
      expect(room.got.map((m) => m.event)).toEqual(["memberships", "access"]);
      expect(room.got[0].payload).toMatchObject({ operation: "DELETE", room_id: gated.id, user_id: leaver.id, role: null });
      await waitFor("the member who stays is told too", () => stays.got.some((m) => m.event === "access"));

      // The member who stays follows the move (as the app does); the leaver's socket, left where it was, hears nothing more.
      const followed = await join(realtimeClient(tokenFor(listener)), gated.id);
      expect(followed.status).toBe("SUBSCRIBED");
      await writer.client.from("moments").insert({ post_id: gatedPost, author_id: writer.id, body: "after you left" });
      await settle(followed, gated.id, gatedPost);
      expect(followed.got.some((m) => m.payload.record?.body === "after you left")).toBe(true);
      expect(room.got.map((m) => m.event)).toEqual(["memberships", "access"]);

      // Its next token is refused on the old topic too: the channel is closed.
      await leaverClient.realtime.setAuth(userJwt(leaver.id, leaver.email));
      await waitFor("the channel is closed", () => closed.length > 0);
      expect(closed[0]).toBe(`error: You no longer have permission to read from this Channel topic: ${oldTopic}`);
    } finally {
      await deleteUsers(leaver);
    }
  });
});

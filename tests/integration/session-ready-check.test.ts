// The ready check end to end: a member's page says it is ready through /rest/v1 (mark_session_ready),
// and the others' supabase-js clients on the session's private channel hear it as event `ready`,
// naming the caller as the database knows them — what the host's page reads with the app's own
// parser and REST read. An outsider's mark and a non-host's choice are refused in words; the host's
// choice arrives with the session's new version.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { readyMarkOf } from "../../lib/sessions/ready-check";
import { readReadiness } from "../../lib/sessions/ready-check-rpc";
import { sessionTopic, type SessionRow } from "../../lib/sessions/types";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonKey, apiUrl, roomEpoch, userJwt } from "../helpers/stack";

vi.setConfig({ testTimeout: 60_000 });

interface Received {
  event: string;
  payload: Record<string, unknown>;
}

let owner: TestUser, host: TestUser, follower: TestUser, other: TestUser, outsider: TestUser;
let room: { id: string };
let post: string;
const clients: SupabaseClient[] = [];

async function join(user: TestUser, roomId: string) {
  const client = createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    accessToken: async () => userJwt(user.id, user.email),
  });
  clients.push(client);
  await client.realtime.setAuth();
  const channel: RealtimeChannel = client.channel(sessionTopic(roomId, await roomEpoch(roomId)), { config: { private: true } });
  const got: Received[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Received));
  const status = await new Promise<string>((resolve) => channel.subscribe((s) => s !== "CLOSED" && resolve(s)));
  return { got, status };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  [owner, host, follower, other, outsider] = await Promise.all(
    ["rc-owner", "rc-host", "rc-follower", "rc-other", "rc-outsider"].map((label) => signedInUser(label)),
  );
  room = await createRoom(owner.id, "public");
  await addMember(room.id, host.id, "moderator");
  await addMember(room.id, follower.id);
  await addMember(room.id, other.id);
  post = (
    await adminQuery<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'Tone', 'embed', 'https://vimeo.com/1', 300) returning id",
      [room.id, host.id],
    )
  )[0].id;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  if (room) await adminQuery("delete from public.rooms where id = $1", [room.id]);
  await deleteUsers(owner, host, follower, other, outsider);
});

describe("the ready check through the real backend", () => {
  test("a follower's mark reaches the others on the session's channel as `ready`, as themselves, and is read back through REST", async () => {
    const { data: session, error } = await host.client.rpc("start_listening_session", { room_id: room.id, post_id: post });
    expect(error).toBeNull();
    const hostPage = await join(host, room.id);
    expect(hostPage.status).toBe("SUBSCRIBED");

    const marked = await follower.client.rpc("mark_session_ready", {
      session_id: (session as SessionRow).id,
      post_id: post,
      position_seconds: 0,
    });
    expect(marked.error).toBeNull();
    await waitFor("the ready message", () => hostPage.got.some((m) => m.event === "ready"));
    const heard = hostPage.got.filter((m) => m.event === "ready").map((m) => readyMarkOf(m.payload));
    expect(heard).toEqual([{ userId: follower.id, postId: post, positionSeconds: 0, readyAt: Date.parse(marked.data as string) }]);

    const stored = await readReadiness(host.client as never, (session as SessionRow).id);
    expect(stored).toEqual(heard);
    // An outsider reads none of it.
    expect(await readReadiness(outsider.client as never, (session as SessionRow).id)).toEqual([]);
  });

  test("an outsider cannot say they are ready; a member who does not host cannot set the check; the host's choice arrives as a new version", async () => {
    const { data: live } = await host.client.from("listening_sessions").select("*").eq("room_id", room.id).is("ended_at", null).single();
    const session = live as SessionRow;
    const otherPage = await join(other, room.id);

    const refused = await outsider.client.rpc("mark_session_ready", { session_id: session.id, post_id: post, position_seconds: 0 });
    expect(refused.error?.message).toBe("Only members of the room can take part in its session");
    const notHost = await follower.client.rpc("set_session_ready_check", { session_id: session.id, seconds: 5, each_track: true });
    expect(notHost.error?.message).toBe("Only the host sets the ready check");
    const badWait = await host.client.rpc("set_session_ready_check", { session_id: session.id, seconds: 12, each_track: true });
    expect(badWait.error?.message).toBe("Wait 5, 10 or 30 seconds for everyone, or don't check");

    const set = await host.client.rpc("set_session_ready_check", { session_id: session.id, seconds: 5, each_track: true });
    expect(set.error).toBeNull();
    await waitFor("the new version", () => otherPage.got.some((m) => m.event === "session"));
    const row = otherPage.got.find((m) => m.event === "session")!.payload as unknown as SessionRow;
    expect([row.ready_check_seconds, row.ready_check_each_track, row.version]).toEqual([5, true, session.version + 1]);
    expect(otherPage.got.filter((m) => m.event === "ready")).toEqual([]);
  });
});

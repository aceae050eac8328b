// Bursts from one account, sent concurrently through /rest/v1 with the real supabase-js: the
// database's quotas hold however the requests interleave (each person's actions of a kind are
// counted under a lock), the refusals are HTTP 429 with the wait in words, and the app's actions
// pass those words on. The values are private.rate_limits()'s (docs/product.md lists them).
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeProblem } from "@/lib/moments/errors";
import { addToQueue } from "@/lib/sessions/queue-writes";
import { markReady } from "@/lib/sessions/ready-check-rpc";
import type { BrowserData } from "@/lib/supabase/data-client";
import { queueMessages } from "@/lib/sessions/queue-errors";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import type { Database } from "@/types/database";
import { adminQuery } from "../helpers/stack";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { callLinkWallet } from "../helpers/wallets";

let owner: TestUser, member: TestUser, bystander: TestUser;
let room: { id: string };
let postId: string;

const data = (user: TestUser) => user.client as unknown as SupabaseClient<Database>;

beforeAll(async () => {
  [owner, member, bystander] = await Promise.all(["rl-owner", "rl-member", "rl-bystander"].map((label) => signedInUser(label)));
  room = await createRoom(owner.id, "public");
  await addMember(room.id, member.id);
  await addMember(room.id, bystander.id);
  const [row] = await adminQuery<{ id: string }>(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, 'Burst target', 'embed', 'https://vimeo.com/76979871') returning id",
    [room.id, owner.id],
  );
  postId = row.id;
});

afterAll(async () => {
  await deleteUsers(owner, member, bystander);
});

describe("a burst from one account", () => {
  test("30 comments at once: 20 are posted, 10 refused with 429 and the wait in words; the room hears only the 20", async () => {
    const before = await adminQuery<{ n: number }>(
      "select count(*)::int as n from realtime.messages where topic = $1 and event = 'moments'",
      [`room:${room.id}`],
    );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        member.client.from("moments").insert({ post_id: postId, author_id: member.id, at_seconds: i, body: `burst ${i}` }),
      ),
    );
    const refused = answers.filter((answer) => answer.error);
    expect(answers.length - refused.length).toBe(20);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.error?.message).toMatch(/^You're commenting quickly — try again in \d+ seconds?$/);
    }
    const [{ n }] = await adminQuery<{ n: number }>("select count(*)::int as n from public.moments where author_id = $1", [member.id]);
    expect(n).toBe(20);
    const after = await adminQuery<{ n: number }>(
      "select count(*)::int as n from realtime.messages where topic = $1 and event = 'moments'",
      [`room:${room.id}`],
    );
    expect(after[0].n - before[0].n).toBe(20);
    // the app's comment action shows the database's words
    expect(writeProblem(refused[0].error!, "moment").message).toBe(refused[0].error!.message);
    // someone else in the room comments as usual
    expect(
      (await bystander.client.from("moments").insert({ post_id: postId, author_id: bystander.id, body: "still here" })).error,
    ).toBeNull();
  });

  test("12 rooms at once: 10 are created, 2 refused in words; nothing of them is kept", async () => {
    const creator = await signedInUser("rl-creator");
    try {
      const stamp = Date.now().toString(36);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => data(creator).rpc("create_room", { slug: `burst-${stamp}-${i}`, name: `Burst ${i}` })),
      );
      const refused = answers.filter((answer) => answer.error);
      expect(refused).toHaveLength(2);
      for (const answer of refused) expect(rateLimitRefusal(answer.error)).toBe("You've created 10 rooms today — try again in 24 hours");
      const [{ n }] = await adminQuery<{ n: number }>("select count(*)::int as n from public.rooms where owner_id = $1", [creator.id]);
      expect(n).toBe(10);
    } finally {
      await deleteUsers(creator);
    }
  });

  test("12 suggestions at once: exactly 10 are pending (the limit is counted under a lock), the rest refused with it", async () => {
    const titles = Array.from({ length: 12 }, (_, i) => `Suggestion ${i}`);
    const ids: string[] = [];
    for (const title of titles) {
      const [row] = await adminQuery<{ id: string }>(
        "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871') returning id",
        [room.id, owner.id, title],
      );
      ids.push(row.id);
    }
    const { data: started, error } = await data(owner).rpc("start_listening_session", { room_id: room.id });
    expect(error).toBeNull();
    const sessionId = (started as { id: string }).id;
    const answers = await Promise.all(ids.map((id) => addToQueue(data(member), { sessionId, postId: id, userId: member.id })));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(10);
    for (const answer of answers.filter((answer) => !answer.ok))
      expect(answer).toEqual({ ok: false, error: queueMessages.suggestionLimit });
    const [{ n }] = await adminQuery<{ n: number }>(
      "select count(*)::int as n from public.session_queue where session_id = $1 and added_by = $2 and status = 'suggested'",
      [sessionId, member.id],
    );
    expect(n).toBe(10);
  });

  test("70 ready marks at once, each at a new position: 60 are recorded and heard by the session, 10 refused with 429 and the wait in words", async () => {
    const party = await createRoom(owner.id, "public");
    await addMember(party.id, member.id);
    const [post] = await adminQuery<{ id: string }>(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url, duration_seconds) values ($1, $2, 'Party', 'embed', 'https://vimeo.com/76979871', 300) returning id",
      [party.id, owner.id],
    );
    const { data: started, error } = await data(owner).rpc("start_listening_session", { room_id: party.id, post_id: post.id });
    expect(error).toBeNull();
    const sessionId = (started as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        data(member).rpc("mark_session_ready", { session_id: sessionId, post_id: post.id, position_seconds: i }),
      ),
    );
    expect(answers.filter((answer) => answer.error === null)).toHaveLength(60);
    const refused = answers.filter((answer) => answer.error !== null);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.error?.message).toMatch(/^Your player said it was ready very often — try again in \d+ seconds?$/);
    }
    const [{ n }] = await adminQuery<{ n: number }>(
      "select count(*)::int as n from realtime.messages where topic = $1 and event = 'ready' and payload ->> 'user_id' = $2",
      [`session:${party.id}`, member.id],
    );
    expect(n).toBe(60);
    // The page's call passes the words on.
    const more = await markReady(member.client as unknown as BrowserData, { sessionId, postId: post.id, positionSeconds: 200 });
    expect(more.ok).toBe(false);
    expect(!more.ok && more.error).toMatch(/^Your player said it was ready very often — try again in \d+ seconds?$/);
  });

  test("32 requests to link a wallet at once: 30 get a nonce, 2 are refused with 429 and the wait in words", async () => {
    const linker = await signedInUser("rl-linker");
    try {
      const answers = await Promise.all(Array.from({ length: 32 }, () => callLinkWallet(linker.client, { action: "nonce" })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused).toHaveLength(2);
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        expect(answer.body).toMatchObject({ code: "rate_limited" });
        expect((answer.body as { error: string }).error).toMatch(/^Too many attempts to link a wallet — try again in \d+ minutes?$/);
      }
    } finally {
      await deleteUsers(linker);
    }
  });
});

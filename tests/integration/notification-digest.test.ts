// The notification-digest function on the running stack, end to end: a person who wants mentions
// by email is mentioned; the function, called with the service key, sends one email through the
// stack's SMTP port into its inbox (read back through Mailpit's API) with both one-click
// unsubscribe headers; again within the hour it sends nothing; anon and signed-in callers are
// refused; the one-click POST (no cookies, through the app's route handler) turns the kind off once;
// a lapsed member of a gated room gets no words from it.
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { addMember, createRoom, deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonKey, apiUrl, inboxUrl, publishableKey, serviceRoleKey } from "../helpers/stack";

// the first call boots the function (and on a fresh clone fetches its packages)
vi.setConfig({ testTimeout: 120_000 });

process.env.NEXT_PUBLIC_SUPABASE_URL = apiUrl;
process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = publishableKey;
const { GET, POST } = await import("../../app/email/unsubscribe/route");

interface InboxMessage {
  ID: string;
  Subject: string;
  Text: string;
  HTML: string;
  ListUnsubscribe: { Header: string; Links: string[]; Errors: string; HeaderPost: string };
}

async function callDigest(key: string, body: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${apiUrl}/functions/v1/notification-digest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, apikey: anonKey, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function messagesTo(address: string): Promise<{ ID: string }[]> {
  const response = await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  return ((await response.json()) as { messages: { ID: string }[] }).messages;
}

async function onlyMessageTo(address: string): Promise<InboxMessage> {
  let found: { ID: string }[] = [];
  for (let i = 0; i < 50 && found.length === 0; i += 1) {
    found = await messagesTo(address);
    if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(found).toHaveLength(1);
  return (await (await fetch(`${inboxUrl}/api/v1/message/${found[0]!.ID}`)).json()) as InboxMessage;
}

async function usernameOf(user: TestUser): Promise<string> {
  const [row] = await adminQuery<{ username: string }>("select username from public.profiles where id = $1", [user.id]);
  return row!.username;
}

async function emailKinds(user: TestUser): Promise<string[]> {
  const [row] = await adminQuery<{ email_kinds: string[] }>("select email_kinds from public.notification_settings where user_id = $1", [
    user.id,
  ]);
  return row!.email_kinds;
}

/** A public room with the mentioner and the reader as members, and one post in it. */
async function publicPost(): Promise<string> {
  const room = await createRoom(owner.id, "public");
  await addMember(room.id, mentioner.id);
  await addMember(room.id, reader.id);
  return await createPost(room.id, owner.id);
}

async function createPost(roomId: string, authorId: string): Promise<string> {
  const id = randomUUID();
  await adminQuery(
    "insert into public.posts (id, room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, $4, 'embed', 'https://vimeo.com/1')",
    [id, roomId, authorId, `Digest post ${id.slice(0, 8)}`],
  );
  return id;
}

async function comment(user: TestUser, postId: string, body: string, parentId?: string): Promise<string> {
  const { data, error } = await user.client
    .from("moments")
    .insert({ post_id: postId, author_id: user.id, body, ...(parentId ? { parent_id: parentId } : { at_seconds: 3 }) })
    .select("id")
    .single();
  if (error) throw error;
  return data.id;
}

function oneClick(url: string): NextRequest {
  return new NextRequest(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
}

let owner: TestUser;
let mentioner: TestUser;
let reader: TestUser;
let lapsed: TestUser;
let bounced: TestUser;
let other: TestUser;

beforeAll(async () => {
  [owner, mentioner, reader, lapsed, bounced, other] = await Promise.all([
    signedInUser("digest-owner"),
    signedInUser("digest-mentioner"),
    signedInUser("digest-reader"),
    signedInUser("digest-lapsed"),
    signedInUser("digest-bounced"),
    signedInUser("digest-other"),
  ]);
});

afterAll(async () => {
  await deleteUsers(owner, mentioner, reader, lapsed, bounced, other);
});

describe("a digest of mentions", () => {
  let message: InboxMessage;

  test("a person who wants mentions by email is mentioned: one email reaches the inbox, with both List-Unsubscribe headers", async () => {
    const postId = await publicPost();
    const settings = await reader.client.from("notification_settings").insert({ user_id: reader.id, email_kinds: ["mention"] });
    expect(settings.error).toBeNull();
    await comment(mentioner, postId, `hey @${await usernameOf(reader)} listen <b>here</b> & now`);

    expect(await callDigest(serviceRoleKey, { user_id: reader.id })).toEqual({ status: 200, body: { sent: 1, skipped: 0, failed: 0 } });

    message = await onlyMessageTo(reader.email);
    expect(message.Subject).toBe("1 new notification on Cuepoint");
    expect(message.Text).toContain("mentioned you in");
    expect(message.Text).toContain("listen <b>here</b> & now");
    expect(message.HTML).toContain("listen &lt;b&gt;here&lt;/b&gt; &amp; now");
    expect(message.HTML).not.toContain("<b>here</b>");
    expect(message.ListUnsubscribe.Errors).toBe("");
    expect(message.ListUnsubscribe.Header).toMatch(/^<http:\/\/localhost:3000\/email\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
    expect(message.ListUnsubscribe.Links).toEqual([message.ListUnsubscribe.Header.slice(1, -1)]);
    expect(message.ListUnsubscribe.HeaderPost).toBe("List-Unsubscribe=One-Click");
    const [row] = await adminQuery<{ recent: boolean }>(
      "select last_digest_at > now() - interval '1 minute' as recent from public.notification_settings where user_id = $1",
      [reader.id],
    );
    expect(row!.recent).toBe(true);
  });

  test("called again within the hour, even after a new mention, it sends nothing", async () => {
    await comment(mentioner, await publicPost(), `again @${await usernameOf(reader)}`);
    expect(await callDigest(serviceRoleKey, { user_id: reader.id })).toEqual({ status: 200, body: { sent: 0, skipped: 1, failed: 0 } });
    expect(await callDigest(serviceRoleKey)).toMatchObject({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await messagesTo(reader.email)).toHaveLength(1);
  });

  test("anon and signed-in callers are refused, and so is a call with the key alone", async () => {
    expect(await callDigest(anonKey, { user_id: reader.id })).toEqual({ status: 403, body: { error: "Only the server sends digests." } });
    expect(await callDigest(reader.accessToken, { user_id: reader.id })).toEqual({
      status: 403,
      body: { error: "Only the server sends digests." },
    });
    const bare = await fetch(`${apiUrl}/functions/v1/notification-digest`, { method: "POST", headers: { apikey: anonKey }, body: "{}" });
    expect(bare.status).toBe(403);
    expect(await callDigest(serviceRoleKey, { user_id: "not an id" })).toMatchObject({ status: 400 });
  });

  test("GET on the link changes nothing: it leads to the page that asks", async () => {
    const link = message.ListUnsubscribe.Links[0]!;
    const answer = GET(new NextRequest(link));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(link.replace("/email/unsubscribe?", "/email/unsubscribe/confirm?"));
    expect(await emailKinds(reader)).toEqual(["mention"]);
  });

  test("the one-click POST, with no cookies, turns mentions off; a second says it was already done", async () => {
    const link = message.ListUnsubscribe.Links[0]!;
    const first = await POST(oneClick(link));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(
      "Done — you won't get notification emails from Cuepoint any more. You can turn them back on any time on your account page.\n",
    );
    expect(await emailKinds(reader)).toEqual([]);

    const second = await POST(oneClick(link));
    expect(second.status).toBe(410);
    expect(await second.text()).toContain("This link was already used");
  });

  test("a forged or missing token is refused in words", async () => {
    const forged = await POST(oneClick(`http://localhost:3000/email/unsubscribe?token=${"x".repeat(43)}`));
    expect(forged.status).toBe(404);
    expect(await forged.text()).toBe("That unsubscribe link isn't valid. You can choose which emails you get on your account page.\n");
    expect((await POST(oneClick("http://localhost:3000/email/unsubscribe"))).status).toBe(400);
  });

  test("the page's button posts the token as a form field", async () => {
    await adminQuery("update public.notification_settings set email_kinds = '{mention}', last_digest_at = null where user_id = $1", [
      reader.id,
    ]);
    await comment(mentioner, await publicPost(), `once more @${await usernameOf(reader)}`);
    expect(await callDigest(serviceRoleKey, { user_id: reader.id })).toMatchObject({ body: { sent: 1 } });
    const latest = (await messagesTo(reader.email))[0]!;
    const text = ((await (await fetch(`${inboxUrl}/api/v1/message/${latest.ID}`)).json()) as InboxMessage).Text;
    const token = /Stop emails about mentions: \S+\?token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;
    const form = new NextRequest("http://localhost:3000/email/unsubscribe", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }).toString(),
    });
    const answer = await POST(form);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("you won't get emails about mentions any more");
    expect(await emailKinds(reader)).toEqual([]);
  });
});

test("a lapsed member of a gated room is told that someone replied, with no words from the room", async () => {
  const room = await createRoom(owner.id, "gated");
  await addMember(room.id, lapsed.id);
  await addMember(room.id, mentioner.id);
  const postId = await createPost(room.id, owner.id);
  const theirs = await comment(lapsed, postId, "my members-only take");
  expect((await lapsed.client.from("notification_settings").insert({ user_id: lapsed.id, email_kinds: ["reply"] })).error).toBeNull();
  await adminQuery("update public.memberships set verified_at = now() - interval '1 day' where room_id = $1 and user_id = $2", [
    room.id,
    lapsed.id,
  ]);
  await comment(mentioner, postId, "secret words for members", theirs);

  expect(await callDigest(serviceRoleKey, { user_id: lapsed.id })).toEqual({ status: 200, body: { sent: 1, skipped: 0, failed: 0 } });
  const message = await onlyMessageTo(lapsed.email);
  expect(message.Text).toContain(`Someone replied to your comment in Room ${room.slug}`);
  for (const part of [message.Text, message.HTML]) {
    expect(part).not.toContain("secret words");
    expect(part).not.toContain("members-only take");
    expect(part).not.toContain("Digest post");
    expect(part).not.toContain(await usernameOf(mentioner));
  }
});

test("an email the mail server refuses is counted as failed, its claim given back, and the others are still sent", async () => {
  const room = await createRoom(owner.id, "public");
  for (const user of [mentioner, bounced, other]) await addMember(room.id, user.id);
  const postId = await createPost(room.id, owner.id);
  for (const user of [bounced, other]) {
    expect((await user.client.from("notification_settings").insert({ user_id: user.id, email_kinds: ["mention"] })).error).toBeNull();
  }
  // The inbox's SMTP listener refuses a recipient whose domain ends with a dot (553), as a real server would.
  await adminQuery("update auth.users set email = email || '.' where id = $1", [bounced.id]);
  await comment(mentioner, postId, `@${await usernameOf(bounced)} and @${await usernameOf(other)}: hear this`);

  const run = await callDigest(serviceRoleKey);
  expect(run.status).toBe(200);
  expect(run.body.failed).toBeGreaterThanOrEqual(1);
  expect(run.body.sent).toBeGreaterThanOrEqual(1);
  expect((await onlyMessageTo(other.email)).Text).toContain("hear this");
  const [kept] = await adminQuery<{ last_digest_at: string | null; tokens: number }>(
    `select s.last_digest_at, (select count(*)::int from private.email_unsubscribe_tokens t where t.user_id = s.user_id) as tokens
     from public.notification_settings s where s.user_id = $1`,
    [bounced.id],
  );
  expect(kept).toEqual({ last_digest_at: null, tokens: 0 });
  // Still due: the next run tries again.
  expect(await callDigest(serviceRoleKey, { user_id: bounced.id })).toEqual({ status: 200, body: { sent: 0, skipped: 0, failed: 1 } });
});

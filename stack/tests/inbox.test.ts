// The Mailpit-compatible inbox: the stack's own (emails the Auth service sent), and a private
// instance of the same API for destructive cases, so parallel suites keep their messages.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createInboxHandler, matchesQuery } from "../server/inbox/api.ts";
import { Inbox } from "../server/inbox/store.ts";
import { client, createConfirmedUser, inboxUrl, latestMail } from "./auth-helpers.ts";

describe("the stack's inbox (Mailpit API on the inbox port)", () => {
  test("list, read, search and delete the emails Auth sent", async () => {
    const user = await createConfirmedUser("inbox");
    await client().auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: "http://localhost:3000/" } });
    await client().auth.resetPasswordForEmail(user.email, { redirectTo: "http://localhost:3000/account/password" });
    await latestMail(user.email, /Reset your Cuepoint password/);

    const list = await fetch(`${inboxUrl}/api/v1/messages?limit=500`);
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toBe("application/json");
    const body = (await list.json()) as {
      total: number;
      count: number;
      start: number;
      unread: number;
      messages: Record<string, unknown>[];
    };
    expect(body.start).toBe(0);
    expect(body.total).toBeGreaterThanOrEqual(2);
    const mine = body.messages.filter((m) => (m.To as { Address: string }[])[0].Address === user.email);
    expect(mine.map((m) => m.Subject)).toEqual(["Reset your Cuepoint password", "Your Cuepoint sign-in link"]);
    expect(mine[0]).toMatchObject({
      ID: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
      MessageID: expect.any(String),
      Read: true, // latestMail opened it
      From: { Name: "Admin", Address: "admin@email.com" },
      To: [{ Name: "", Address: user.email }],
      Cc: [],
      Bcc: [],
      Tags: [],
      Attachments: 0,
      Size: expect.any(Number),
      Snippet: expect.stringContaining("Reset your Cuepoint password"),
    });
    expect(mine[1].Read).toBe(false);
    expect(Date.parse(mine[0].Created as string)).toBeGreaterThan(Date.now() - 60_000);

    const one = await fetch(`${inboxUrl}/api/v1/message/${mine[0].ID}`);
    const message = (await one.json()) as Record<string, string>;
    expect(message).toMatchObject({ ID: mine[0].ID, Subject: "Reset your Cuepoint password", To: [{ Name: "", Address: user.email }] });
    expect(message.HTML).toMatch(
      /<a href="http:\/\/localhost:3000\/auth\/confirm\?token_hash=[0-9a-f]{56}&type=recovery&next=http%3a%2f%2flocalhost%3a3000%2faccount%2fpassword">Choose a new password<\/a>/,
    );
    expect(message.Text).toContain("Choose a new password (http://localhost:3000/auth/confirm?token_hash=");

    const search = (await (
      await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:${user.email} subject:"sign-in link"`)}`)
    ).json()) as { messages: { ID: string; Read: boolean }[]; messages_count: number };
    expect(search.messages_count).toBe(1);
    expect(search.messages[0].ID).toBe(mine[1].ID);

    const reread = (await (await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:${user.email} is:read`)}`)).json()) as {
      messages: { ID: string }[];
    };
    expect(reread.messages.map((m) => m.ID)).toEqual([mine[0].ID]);

    const deleted = await fetch(`${inboxUrl}/api/v1/messages`, { method: "DELETE", body: JSON.stringify({ IDs: [mine[0].ID] }) });
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe("ok");
    expect((await fetch(`${inboxUrl}/api/v1/message/${mine[0].ID}`)).status).toBe(404);
    expect((await fetch(`${inboxUrl}/api/v1/message/${mine[1].ID}`)).status).toBe(200);
  });

  test("unknown routes and messages answer 404; a search needs a query", async () => {
    expect((await fetch(`${inboxUrl}/api/v1/message/doesnotexist`)).status).toBe(404);
    expect((await fetch(`${inboxUrl}/api/v2/messages`)).status).toBe(404);
    expect((await fetch(`${inboxUrl}/api/v1/search`)).status).toBe(400);
  });
});

describe("a private inbox, for the destructive cases", () => {
  const inbox = new Inbox();
  const server = http.createServer(createInboxHandler(inbox));
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const add = (to: string, subject: string) =>
    inbox.add({ from: { Name: "Admin", Address: "admin@email.com" }, to: [{ Name: "", Address: to }], subject, html: `<p>${subject}</p>` });

  test("pagination with start and limit, newest first; latest; mark read; delete everything", async () => {
    for (let i = 0; i < 5; i++) add(`p${i}@x.test`, `Message ${i}`);
    const page = (await (await fetch(`${url}/api/v1/messages?start=1&limit=2`)).json()) as {
      total: number;
      count: number;
      start: number;
      messages: { Subject: string }[];
    };
    expect(page).toMatchObject({ total: 5, count: 2, start: 1 });
    expect(page.messages.map((m) => m.Subject)).toEqual(["Message 3", "Message 2"]);
    expect(((await (await fetch(`${url}/api/v1/message/latest`)).json()) as { Subject: string }).Subject).toBe("Message 4");
    expect((await fetch(`${url}/api/v1/messages`, { method: "PUT", body: JSON.stringify({ Read: true }) })).status).toBe(200);
    expect(((await (await fetch(`${url}/api/v1/messages`)).json()) as { unread: number }).unread).toBe(0);
    expect((await fetch(`${url}/api/v1/messages`, { method: "DELETE", body: "{not json" })).status).toBe(400);
    expect((await fetch(`${url}/api/v1/messages`, { method: "DELETE" })).status).toBe(200);
    expect(await (await fetch(`${url}/api/v1/messages`)).json()).toMatchObject({ total: 0, count: 0, messages: [] });
  });

  test("search terms: to:, from:, subject:, quoted phrases, negation, free text", () => {
    const message = add("someone@example.test", "Confirm your Cuepoint account");
    expect(matchesQuery(message, "to:someone@example.test")).toBe(true);
    expect(matchesQuery(message, "to:other@example.test")).toBe(false);
    expect(matchesQuery(message, "from:admin@email.com")).toBe(true);
    expect(matchesQuery(message, 'subject:"cuepoint account"')).toBe(true);
    expect(matchesQuery(message, "-subject:confirm")).toBe(false);
    expect(matchesQuery(message, "confirm someone")).toBe(true);
    expect(matchesQuery(message, "is:unread")).toBe(true);
  });

  test("the inbox keeps Mailpit's default of the newest 500 messages", () => {
    const capped = new Inbox();
    for (let i = 0; i < 510; i++)
      capped.add({ from: { Name: "", Address: "a@b.test" }, to: [{ Name: "", Address: "c@d.test" }], subject: `n${i}`, html: "" });
    expect(capped.all()).toHaveLength(500);
    expect(capped.all()[0].Subject).toBe("n509");
    expect(capped.all()[499].Subject).toBe("n10");
  });
});

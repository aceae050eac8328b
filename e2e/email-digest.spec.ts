import { expect, test } from "@playwright/test";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import { checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { addMember, admin, createPublicRoom } from "./support/rooms";
import { anon, apiUrl, createConfirmedUser, profileOf } from "./support/users";

const inboxUrl = `http://127.0.0.1:${process.env.STACK_INBOX_PORT ?? 54324}`;

interface InboxMessage {
  Subject: string;
  HTML: string;
  ListUnsubscribe: { Links: string[]; HeaderPost: string };
}

async function digestTo(address: string): Promise<InboxMessage> {
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const found = (await (await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`)).json()) as {
          messages: { ID: string }[];
        };
        id = found.messages[0]?.ID;
        return id;
      },
      { message: `a digest email to ${address}` },
    )
    .toBeTruthy();
  return (await (await fetch(`${inboxUrl}/api/v1/message/${id}`)).json()) as InboxMessage;
}

test("C is mentioned, gets the digest, opens its unsubscribe link signed out and stops mention emails; /account shows the switch off", async ({
  page,
  browser,
  baseURL,
}) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("digest-owner");
  const mentioner = await createConfirmedUser("digest-mentioner");
  const person = await createConfirmedUser("digest-c");
  const room = await createPublicRoom(owner.id, "digest-room", "Digest Room");
  await addMember(room.id, mentioner.id);
  await addMember(room.id, person.id);
  const { data: post, error } = await admin
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "Side A", media_kind: "embed", media_url: "https://vimeo.com/76979871" })
    .select("id")
    .single();
  expect(error).toBeNull();

  // C asks for mentions by email on /account.
  await signInWithPassword(page, person.email, person.password);
  await expectSignedIn(page);
  await page.goto("/account");
  const settings = page.getByRole("form", { name: "Notifications" });
  await settings.getByRole("switch", { name: "Mentions by email" }).check();
  await settings.getByRole("button", { name: "Save notification settings" }).click();
  await expect(settings.getByRole("status")).toHaveText("Notification settings saved.");

  // Someone mentions C; the server sends the digest.
  const client = anon();
  expect((await client.auth.signInWithPassword({ email: mentioner.email, password: mentioner.password })).error).toBeNull();
  const { username } = await profileOf(person.id);
  const mention = await client
    .from("moments")
    .insert({ post_id: (post as { id: string }).id, author_id: mentioner.id, body: `@${username} this part is for you`, at_seconds: 12 });
  expect(mention.error).toBeNull();
  const sent = await fetch(`${apiUrl}/functions/v1/notification-digest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ user_id: person.id }),
  });
  expect(await sent.json()).toEqual({ sent: 1, skipped: 0, failed: 0 });

  const email = await digestTo(person.email);
  expect(email.Subject).toBe("1 new notification on Cuepoint");
  expect(email.HTML).toContain("this part is for you");
  expect(email.ListUnsubscribe.HeaderPost).toBe("List-Unsubscribe=One-Click");
  // The footer's "Stop emails about mentions" link, on the site under test.
  const href = /<a href="([^"]+)"[^>]*>Stop emails about mentions<\/a>/.exec(email.HTML)?.[1]?.replaceAll("&amp;", "&");
  expect(href).toBeTruthy();
  const link = new URL(href!);
  const target = `${baseURL}${link.pathname}${link.search}`;

  // Opened in a browser with no session (a phone's mail app): a question, nothing changed yet.
  const visitor = await browser.newContext();
  const stranger = await visitor.newPage();
  const strangerErrors = await watchConsole(stranger);
  await stranger.goto(target);
  await expect(stranger).toHaveURL(/\/email\/unsubscribe\/confirm\?token=/);
  await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("Stop emails about mentions?");
  await checkPage(stranger, "email-unsubscribe");
  await page.goto("/account");
  await expect(settings.getByRole("switch", { name: "Mentions by email" })).toBeChecked();

  await stranger.getByRole("button", { name: "Stop these emails" }).click();
  await expect(stranger.locator("body")).toContainText("Done — you won't get emails about mentions any more.");

  // The same link again says it was used.
  await stranger.goto(target);
  await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("Already unsubscribed");
  await checkPage(stranger, "email-unsubscribe-used");
  expect(strangerErrors).toEqual([]);
  await visitor.close();

  await page.reload();
  await expect(settings.getByRole("switch", { name: "Mentions by email" })).not.toBeChecked();
  expect(errors).toEqual([]);
});

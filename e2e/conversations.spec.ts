import { expect, type Page, test } from "@playwright/test";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import { signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { apiUrl, createConfirmedUser, profileOf } from "./support/users";

// The whole conversation, as the three people in it live it: Ada comments at 1:42; Bea, on her own
// page, replies to it and mentions Cleo, picking her from the @ list by keyboard. Ada's open page's
// bell counts up with no reload, and her notification opens the post at 1:42 with Bea's reply
// highlighted. Cleo, who asked for mention emails, gets the digest in the local inbox and
// unsubscribes with the one-click POST its List-Unsubscribe header names — no session needed, and
// only once.

const inboxUrl = `http://127.0.0.1:${process.env.STACK_INBOX_PORT ?? 54324}`;
const bell = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Notifications/ });
const comments = (page: Page) => page.getByRole("list", { name: "Comments", exact: true });
const expectLive = (page: Page) =>
  expect(page.getByRole("region", { name: "Here now" }).getByRole("status")).toHaveText("Live", { timeout: 20_000 });

test("B replies to A's comment at 1:42 and mentions C: A's bell counts live and opens the reply at 1:42; C's email unsubscribes in one click", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const ada = await createConfirmedUser("conv-ada");
  const bea = await createConfirmedUser("conv-bea");
  const cleo = await createConfirmedUser("conv-cleo");
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "conversation-room");
  const postId = await uploadTone(adaClient, room.id, ada.id, "Two minutes of tone", 120);
  for (const person of [bea, cleo]) {
    expect((await service.from("memberships").insert({ room_id: room.id, user_id: person.id })).error).toBeNull();
  }
  // Cleo wants mentions by email (what /account's switch writes; e2e/email-digest.spec.ts clicks it).
  expect((await service.from("notification_settings").insert({ user_id: cleo.id, email_kinds: ["mention"] })).error).toBeNull();
  const { data: comment, error } = await adaClient
    .from("moments")
    .insert({ post_id: postId, author_id: ada.id, at_seconds: 102, body: "The turn at 1:42" } as never)
    .select("id")
    .single<{ id: string }>();
  expect(error).toBeNull();
  const [adaProfile, cleoProfile] = await Promise.all([profileOf(ada.id), profileOf(cleo.id)]);

  const adaPage = await (await browser.newContext()).newPage();
  const beaPage = await (await browser.newContext()).newPage();
  const adaErrors = await watchConsole(adaPage);
  const beaErrors = await watchConsole(beaPage);
  await signInWithPassword(adaPage, ada.email, ada.password);
  await signInWithPassword(beaPage, bea.email, bea.password);
  await Promise.all([adaPage.waitForURL("/"), beaPage.waitForURL("/")]);
  const postPath = `/r/${room.slug}/p/${postId}`;
  await adaPage.goto(`/r/${room.slug}`);
  await beaPage.goto(postPath);
  await expectLive(beaPage);
  await expect(bell(adaPage)).toHaveAccessibleName("Notifications");
  // The bell's channel joins after first paint.
  await adaPage.waitForTimeout(1500);

  // Bea replies under Ada's comment, mentioning Cleo from the @ list.
  const thread = comments(beaPage).locator(":scope > li").filter({ hasText: "The turn at 1:42" });
  await thread.getByRole("button", { name: "Reply", exact: true }).click();
  const field = thread.getByRole("textbox", { name: `Reply to ${adaProfile.display_name}` });
  await field.pressSequentially(`you have to hear this @${cleoProfile.username.slice(0, 6)}`);
  const option = beaPage
    .getByRole("listbox", { name: "People in this room" })
    .getByRole("option", { name: new RegExp(`@${cleoProfile.username}`) });
  await expect(option).toBeVisible();
  const index = await beaPage
    .getByRole("listbox", { name: "People in this room" })
    .getByRole("option")
    .evaluateAll((nodes, name) => nodes.findIndex((node) => node.textContent?.includes(`@${name}`)), cleoProfile.username);
  for (let step = 0; step < index; step++) await field.press("ArrowDown");
  await field.press("Enter");
  await expect(field).toHaveValue(`you have to hear this @${cleoProfile.username} `);
  await thread.getByRole("button", { name: "Post reply" }).click();
  await expect(thread.getByRole("list", { name: /^Replies to / })).toContainText(`@${cleoProfile.username}`);

  // Ada's open page counts it, with no reload.
  await expect(bell(adaPage)).toHaveAccessibleName("Notifications, 1 unread", { timeout: 5_000 });
  const { data: reply } = await service.from("moments").select("id").eq("parent_id", comment!.id).single<{ id: string }>();

  // Her notification opens the post at 1:42 with the reply highlighted.
  await bell(adaPage).click();
  await adaPage.waitForURL("/notifications");
  const item = adaPage
    .getByRole("list", { name: "Notifications", exact: true })
    .getByRole("listitem")
    .filter({ hasText: "replied to your comment" });
  await expect(item).toContainText("you have to hear this");
  await item.getByRole("link").first().click();
  await adaPage.waitForURL((url) => url.pathname === postPath);
  const landed = new URL(adaPage.url());
  expect(landed.searchParams.get("t")).toBe("102");
  expect(landed.searchParams.get("comment")).toBe(reply!.id);
  const highlighted = comments(adaPage).locator(`[data-moment-id="${reply!.id}"]`);
  await expect(highlighted).toBeFocused();
  await expect(highlighted).toHaveClass(/ring-2/);
  await expect(adaPage.getByRole("form", { name: "Add a comment" }).getByRole("button", { name: "Comment at 1:42" })).toBeVisible();

  // Cleo's digest: sent by the function the hourly schedule calls, received by the local inbox.
  const sent = await fetch(`${apiUrl}/functions/v1/notification-digest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ user_id: cleo.id }),
  });
  expect(await sent.json()).toEqual({ sent: 1, skipped: 0, failed: 0 });
  let messageId: string | undefined;
  await expect
    .poll(async () => {
      const found = (await (await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:"${cleo.email}"`)}`)).json()) as {
        messages: { ID: string }[];
      };
      return (messageId = found.messages[0]?.ID);
    })
    .toBeTruthy();
  const email = (await (await fetch(`${inboxUrl}/api/v1/message/${messageId}`)).json()) as {
    Text: string;
    ListUnsubscribe: { Links: string[]; HeaderPost: string; Errors: string };
  };
  expect(email.Text).toContain("you have to hear this");
  expect(email.ListUnsubscribe.Errors).toBe("");
  expect(email.ListUnsubscribe.HeaderPost).toBe("List-Unsubscribe=One-Click");
  const link = email.ListUnsubscribe.Links.find((candidate) => candidate.startsWith("http"));
  expect(link).toBeTruthy();
  // The link names the site the function is configured with; the app under test answers the same path.
  const oneClick = `${baseURL}${new URL(link!).pathname}${new URL(link!).search}`;

  // RFC 8058: a POST with no cookies, as a mail client sends it. Once.
  const unsubscribe = () =>
    fetch(oneClick, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
  expect((await unsubscribe()).status).toBe(200);
  const { data: settings } = await service.from("notification_settings").select("email_kinds").eq("user_id", cleo.id).single();
  expect(settings?.email_kinds).not.toContain("mention");
  expect((await unsubscribe()).status).toBe(410);
  expect(adaErrors).toEqual([]);
  expect(beaErrors).toEqual([]);
});

import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Hostile rows: every free-text column a member writes (their profile's name and bio; a room's name
// and description; a post's title and body; a comment), filled through REST — never the app's forms
// — with what breaks careless pages: markup and script, right-to-left writing and overrides,
// zero-width and combining characters, astral letters, a thousand emoji, one unbroken word at the
// column's limit, line breaks. Every page that shows them renders (200, no console error, no
// dialog), shows them as text, and an open page that receives them live stays up. A line (a name, a
// title) refuses the characters that reorder text (tests/fixtures/text-shapes.json); a body keeps them.

test.describe.configure({ timeout: 180_000 });

const script = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
const rtl = "\u202Egnp.exe\u202C and back";
const rtlWriting = "שלום עולם مرحبا";
const zeroWidth = "z\u200Be\u200Dr\uFEFFo\u2060 width";
const combining = "Z̸̢̛͓̜a̷̧̛l̶̨g̶̢o̵̡ text";
const astral = "𝕳𝖔𝖘𝖙𝖎𝖑𝖊 𓀀 𝄞";
const emoji = (n: number) => "🔥".repeat(n);

/** The page answers 200, raises no dialog, and shows each text as text. */
async function showsAsText(page: Page, path: string, texts: string[]) {
  const answer = await page.goto(path);
  expect(answer?.status(), path).toBe(200);
  for (const text of texts) await expect(page.getByText(text, { exact: false }).first(), `${path}: ${text}`).toBeVisible();
  // Markup stayed text: nothing was injected.
  expect(await page.locator("main img[src='x'], main script:not([src]):has-text('alert')").count()).toBe(0);
}

test("hostile text in every column a member writes renders as text on every page, and live", async ({ browser }) => {
  const [author, reader] = await Promise.all([createConfirmedUser("hostile-author"), createConfirmedUser("hostile-reader")]);
  const client = await signedInClient(author.email, author.password);

  // The profile (display name up to 50 characters, bio up to 280).
  const displayName = `${script}`.slice(0, 50);
  const bio = `${rtl}\n${zeroWidth}\n${combining}\n${astral}\n${emoji(100)}`;
  expect((await client.from("profiles").update({ display_name: displayName, bio }).eq("id", author.id)).error).toBeNull();
  const { data: profile } = await service.from("profiles").select("username").eq("id", author.id).single();

  // A room (name up to 80, description up to 500), posts (title up to 120, body up to 2000).
  const room = await createRoomAs(client, "hostile-room");
  const refused = await client
    .from("rooms")
    .update({ name: `${rtl} ${astral}` })
    .eq("id", room.id);
  expect(refused.error).toMatchObject({ code: "23514", message: expect.stringContaining("rooms_name_characters") });
  const roomName = `${rtlWriting} ${astral}`.slice(0, 80);
  expect(
    (
      await client
        .from("rooms")
        .update({ name: roomName, description: `${rtl}\n${script}\n${"W".repeat(400)}` })
        .eq("id", room.id)
    ).error,
  ).toBeNull();
  await addMember(room.id, reader.id);
  const titles = [script.slice(0, 120), rtlWriting, zeroWidth, combining, astral, emoji(120), "W".repeat(120)];
  const overridden = await client
    .from("posts")
    .insert({ room_id: room.id, author_id: author.id, title: rtl, media_kind: "embed", media_url: "https://vimeo.com/6999" });
  expect(overridden.error).toMatchObject({ code: "23514", message: expect.stringContaining("posts_title_characters") });
  const { data: posts, error } = await client
    .from("posts")
    .insert(
      titles.map((title, i) => ({
        room_id: room.id,
        author_id: author.id,
        title,
        body: i === 0 ? `${script}\n${emoji(1000)}` : combining,
        media_kind: "embed",
        media_url: `https://vimeo.com/${7000 + i}`,
      })),
    )
    .select("id, title");
  expect(error).toBeNull();
  const target = posts!.find((post) => post.title === titles[0])!;
  for (const [i, body] of [script, rtl, zeroWidth, combining, astral, emoji(1000), "W".repeat(1000)].entries()) {
    const { error: commentError } = await client
      .from("moments")
      .insert({ post_id: target.id, author_id: author.id, at_seconds: i, body } as never);
    expect(commentError).toBeNull();
  }

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const errors = await watchConsole(page);
  await signInWithPassword(page, reader.email, reader.password);
  await page.waitForURL("/");

  await showsAsText(page, "/", [rtlWriting]);
  await showsAsText(page, `/r/${room.slug}`, ['<script>alert("x")</script>', rtlWriting, "gnp.exe", "𝕳𝖔𝖘𝖙𝖎𝖑𝖊", "Z̸̢̛͓̜a̷̧̛l̶̨g̶̢o̵̡"]);
  await checkPage(page, "hostile-room");
  await showsAsText(page, `/u/${profile!.username}`, ['<script>alert("x")</script>'.slice(0, 20), "gnp.exe", "𝕳𝖔𝖘𝖙𝖎𝖑𝖊"]);
  await showsAsText(page, `/r/${room.slug}/p/${target.id}`, ['<script>alert("x")</script>', "gnp.exe", "z\u200Be"]);
  await checkPage(page, "hostile-post");

  // Live: a hostile comment and a hostile post arrive on open pages, which stay up.
  await page.goto(`/r/${room.slug}/p/${target.id}`);
  await expect(page.locator("[data-live-status='live']")).toBeVisible({ timeout: 20_000 });
  const { error: liveError } = await client
    .from("moments")
    .insert({ post_id: target.id, author_id: author.id, at_seconds: 9, body: `${script} live ${rtl}` } as never);
  expect(liveError).toBeNull();
  await expect(page.getByText(`${script} live`, { exact: false })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  await page.goto(`/r/${room.slug}`);
  await expect(page.locator("[data-live-status='live']")).toBeVisible({ timeout: 20_000 });
  const { error: livePostError } = await client.from("posts").insert({
    room_id: room.id,
    author_id: author.id,
    title: `${astral} ${script}`.slice(0, 120),
    media_kind: "embed",
    media_url: "https://vimeo.com/7999",
  });
  expect(livePostError).toBeNull();
  await expect(page.getByText("𝄞 <script>", { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, type Frame, type Page, test } from "@playwright/test";
import { checkPage, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Cuepoint as an oEmbed provider: /oembed answers for public posts and comments (and says nothing
// of others), /embed/p/<id> is the player any site may frame (and the only page that may be), and
// a page on another origin embeds it from the oEmbed answer's html and plays an uploaded file from ?t=.

const seconds = 20;
const secretTitle = "Members-only premiere of the secret mix";
const secretComment = "whispered-gated-comment-words";
const secretThumbnail = "https://i.ytimg.com/vi/secretThumbnail/hqdefault.jpg";

async function fixtures() {
  const poster = await createConfirmedUser("embed-poster");
  const client = await signedInClient(poster.email, poster.password);
  const room = await createRoomAs(client, "embed-room");
  const postId = await uploadTone(client, room.id, poster.id, `Embeddable tone "${room.slug}" <loud> & clear`, seconds);
  const moments: { id: string; at: number }[] = [];
  for (const at of [5, 12.6]) {
    const { data, error } = await client
      .from("moments")
      .insert({ post_id: postId, author_id: poster.id, at_seconds: at, body: `Listen at ${at}` } as never)
      .select("id")
      .single();
    if (error || !data) throw error;
    moments.push({ id: (data as { id: string }).id, at });
  }
  const { data: video, error: videoError } = await client
    .from("posts")
    .insert({ room_id: room.id, author_id: poster.id, title: "A video link", media_kind: "embed", media_url: "https://vimeo.com/76979871" })
    .select("id")
    .single();
  if (videoError || !video) throw videoError;
  const hiddenId = await uploadTone(client, room.id, poster.id, "Hidden by reports", 5);
  await service.from("posts").update({ hidden_at: new Date().toISOString() }).eq("id", hiddenId);

  // A gated room's post, with a thumbnail and a comment: none of it may reach an embed.
  const gated = await createRoomAs(client, "embed-gated", true);
  const { data: gatedPost, error } = await service
    .from("posts")
    .insert({
      room_id: gated.id,
      author_id: poster.id,
      title: secretTitle,
      media_kind: "embed",
      media_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      embed: { provider: "youtube", provider_name: "YouTube", title: secretTitle, thumbnail_url: secretThumbnail, width: 480, height: 360 },
    })
    .select("id")
    .single();
  if (error || !gatedPost) throw error;
  const gatedMoment = await service
    .from("moments")
    .insert({ post_id: gatedPost.id, author_id: poster.id, at_seconds: 3, body: secretComment } as never)
    .select("id")
    .single();
  if (gatedMoment.error || !gatedMoment.data) throw gatedMoment.error;
  return {
    poster: { ...poster, profile: await profileOf(poster.id) },
    room,
    postId,
    moments,
    hiddenId,
    videoId: (video as { id: string }).id,
    gated: { room: gated, postId: gatedPost.id as string, momentId: (gatedMoment.data as { id: string }).id },
  };
}

let made: Awaited<ReturnType<typeof fixtures>>;
test.beforeAll(async () => {
  made = await fixtures();
});

// Playwright's `request` (as `bot`): no cookies, no browser, as a link-preview bot or an oEmbed consumer asks.
const oembed = (bot: APIRequestContext, query: Record<string, string>) => bot.get(`/oembed?${new URLSearchParams(query)}`);

test("oEmbed: a public post or comment answers type rich with the embed page's iframe; bad, foreign and gated urls are refused as the spec says", async ({
  request: bot,
  baseURL,
}) => {
  const postUrl = `${baseURL}/r/${made.room.slug}/p/${made.postId}`;
  const answer = await oembed(bot, { url: `${postUrl}?t=1m7s`, format: "json" });
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toContain("application/json");
  const json = await answer.json();
  const title = `Embeddable tone "${made.room.slug}" <loud> & clear`;
  expect(json).toMatchObject({
    type: "rich",
    version: "1.0",
    title,
    author_name: made.poster.profile.display_name,
    author_url: `${baseURL}/u/${made.poster.profile.username}`,
    provider_name: "Cuepoint",
    provider_url: `${baseURL}/`,
    width: 560,
    height: 180,
  });
  expect(json.html).toBe(
    `<iframe src="${baseURL}/embed/p/${made.postId}?t=67" width="560" height="180" frameborder="0" allow="autoplay; encrypted-media; fullscreen" ` +
      `title="Embeddable tone &quot;${made.room.slug}&quot; &lt;loud&gt; &amp; clear · ${made.room.name}" loading="lazy"></iframe>`,
  );
  // An uploaded file has no thumbnail.
  expect(json).not.toHaveProperty("thumbnail_url");
  // format may be left out (json is the default); sizes honour the consumer's limits.
  const small = await (await oembed(bot, { url: postUrl, maxwidth: "300", maxheight: "120" })).json();
  expect([small.width, small.height]).toEqual([300, 120]);
  expect(small.html).toContain(`src="${baseURL}/embed/p/${made.postId}" width="300" height="120"`);

  // A comment's address leads to its post, at its time.
  const moment = await (await oembed(bot, { url: `${baseURL}/m/${made.moments[1].id}`, format: "json" })).json();
  expect(moment.html).toContain(`src="${baseURL}/embed/p/${made.postId}?t=12"`);

  // Errors, with words and the spec's statuses.
  const refused = async (query: Record<string, string>, status: number, words: RegExp) => {
    const response = await oembed(bot, query);
    expect(response.status(), JSON.stringify(query)).toBe(status);
    const text = await response.text();
    expect(text).toMatch(words);
    return text;
  };
  await refused({ url: postUrl, format: "xml" }, 501, /JSON only/);
  await refused({ format: "json" }, 400, /address of a Cuepoint post/);
  await refused({ url: "not a url at all", format: "json" }, 400, /isn't a web address/);
  await refused({ url: `https://evil.example/r/${made.room.slug}/p/${made.postId}`, format: "json" }, 400, /another site/);
  await refused({ url: `${baseURL}/r/${made.room.slug}/p/${randomUUID()}`, format: "json" }, 404, /no public post/);
  await refused({ url: `${baseURL}/r/not-${made.room.slug}/p/${made.postId}`, format: "json" }, 404, /no public post/);
  await refused({ url: `${baseURL}/r/${made.room.slug}/p/${made.hiddenId}`, format: "json" }, 404, /no public post/);
  await refused({ url: `${baseURL}/r/${made.room.slug}`, format: "json" }, 404, /no public post/);
  // A gated room's post and comment: not found, exactly like a missing one; nothing of them told.
  for (const url of [`${baseURL}/r/${made.gated.room.slug}/p/${made.gated.postId}`, `${baseURL}/m/${made.gated.momentId}`]) {
    const text = await refused({ url, format: "json" }, 404, /no public post/);
    expect(text).not.toContain(secretTitle);
    expect(text).not.toContain("secretThumbnail");
  }
});

test("framing: the embed page alone answers frame-ancestors * (with the nonce policy); other pages keep 'none'; public post pages name their oEmbed answer", async ({
  request: bot,
  baseURL,
}) => {
  const embed = await bot.get(`/embed/p/${made.postId}?t=3`);
  expect(embed.status()).toBe(200);
  const policy = embed.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/(^|; )frame-ancestors \*(;|$)/);
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  const nonce = /'nonce-([^']+)'/.exec(policy)![1];
  const html = await embed.text();
  expect(html).toContain(`nonce="${nonce}"`);
  expect(embed.headers()).not.toHaveProperty("x-frame-options");
  // No site chrome: no header navigation, no sign-in link.
  expect(html).not.toContain('aria-label="Main"');
  expect(html).toContain(made.room.name);

  const postPath = `/r/${made.room.slug}/p/${made.postId}`;
  for (const path of ["/", postPath, `/r/${made.room.slug}`, "/embedded-elsewhere"]) {
    const response = await bot.get(path);
    const headers = response.headers();
    expect(headers["content-security-policy"], path).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(headers["content-security-policy"], path).toMatch(/'nonce-/);
    expect(headers["x-frame-options"], path).toBe("DENY");
  }

  // Discovery: the public post's page links its oEmbed answer; a gated post's page does not.
  const postHtml = await (await bot.get(postPath)).text();
  const href = `${baseURL}/oembed?${new URLSearchParams({ url: `${baseURL}${postPath}`, format: "json" })}`;
  const tag = /<link[^>]*type="application\/json\+oembed"[^>]*>/.exec(postHtml)?.[0] ?? "";
  expect(tag).toContain('rel="alternate"');
  expect(tag).toContain('title="Embeddable tone &quot;');
  const discovered = (/href="([^"]+)"/.exec(tag)?.[1] ?? "").replaceAll("&amp;", "&");
  expect(discovered).toBe(href);
  expect((await bot.get(discovered)).status()).toBe(200);
  const gatedHtml = await (await bot.get(`/r/${made.gated.room.slug}/p/${made.gated.postId}`)).text();
  expect(gatedHtml).not.toContain("json+oembed");
});

test("a gated, hidden or missing post's embed page shows only that it can't be shown", async ({ page, request: bot }) => {
  for (const id of [made.gated.postId, made.hiddenId, randomUUID(), "not-an-id"]) {
    const response = await bot.get(`/embed/p/${id}`);
    const html = await response.text();
    expect(html).toContain("This post can&#x27;t be shown here");
    for (const secret of [secretTitle, secretComment, "secretThumbnail", "Hidden by reports", made.gated.room.name]) {
      expect(html, id).not.toContain(secret);
    }
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors *");
  }
  const errors = await watchConsole(page);
  await page.goto(`/embed/p/${made.gated.postId}`);
  await expect(page.getByRole("heading", { name: "This post can't be shown here" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open Cuepoint" })).toHaveAttribute("target", "_blank");
  await checkPage(page, "embed-unavailable");
  expect(errors).toEqual([]);
});

/** A page on another origin (its own port, 127.0.0.1 rather than localhost) holding `html`. */
async function otherSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>A blog</title></head><body style="margin:16px;font-family:sans-serif">
<h1>A blog post that embeds a Cuepoint post</h1>${html}<p>More words after the player.</p></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

const embedFrame = async (page: Page, path: string): Promise<Frame> => {
  await expect.poll(() => page.frames().some((frame) => frame.url().includes(path))).toBe(true);
  return page.frames().find((frame) => frame.url().includes(path))!;
};

test("another site embeds the player from the oEmbed html: it plays the uploaded file from ?t=, markers seek; a post page can't be framed", async ({
  page,
  request: bot,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const embedPolicies: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/embed/p/")) embedPolicies.push(response.headers()["content-security-policy"] ?? "");
  });
  const { html } = await (await oembed(bot, { url: `${baseURL}/r/${made.room.slug}/p/${made.postId}?t=7`, format: "json" })).json();
  const site = await otherSite(html);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(site.url);
    const frame = await embedFrame(page, `/embed/p/${made.postId}`);
    expect(embedPolicies[0]).toContain("frame-ancestors *");
    const iframe = page.frameLocator("iframe");
    await expect(iframe.getByRole("heading", { name: /Embeddable tone/ })).toBeVisible();
    await expect(iframe.getByText(made.room.name)).toBeVisible();
    const back = iframe.getByRole("link", { name: /Open on Cuepoint/ });
    await expect(back).toHaveAttribute("href", `/r/${made.room.slug}/p/${made.postId}`);
    await expect(back).toHaveAttribute("target", "_blank");
    await expect(back).toHaveAttribute("rel", "noopener");

    // The file plays, signed for a visitor, starting at ?t=7.
    const audio = frame.locator("audio");
    await expect(audio).toBeAttached({ timeout: 20_000 });
    const time = () => audio.evaluate((element: HTMLMediaElement) => element.currentTime);
    await expect.poll(time, { timeout: 10_000 }).toBeGreaterThanOrEqual(7);
    expect(await time()).toBeLessThan(8);
    await audio.evaluate(async (element: HTMLMediaElement) => {
      element.muted = true;
      await element.play();
    });
    await expect.poll(time, { timeout: 10_000 }).toBeGreaterThan(7.2);
    await audio.evaluate((element: HTMLMediaElement) => element.pause());

    // The comments sit on the timeline; a marker seeks there.
    const markers = iframe.getByRole("group", { name: "Comments on the timeline" });
    await markers.getByRole("button", { name: /Comment at 0:12/ }).click();
    await expect.poll(time).toBeGreaterThanOrEqual(12.6);
    await audio.evaluate((element: HTMLMediaElement) => element.pause());
    await page.screenshot({ path: "e2e/screenshots/embed-on-another-site-1280.png" });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "e2e/screenshots/embed-on-another-site-dark-1280.png" });
    await page.emulateMedia({ colorScheme: "light" });
    expect(errors).toEqual([]);
  } finally {
    site.server.close();
  }

  // The post page itself refuses to be framed (frame-ancestors 'none').
  const refusing = await otherSite(
    `<iframe src="${baseURL}/r/${made.room.slug}/p/${made.postId}" width="560" height="300" title="Post page"></iframe>`,
  );
  try {
    const blocked: string[] = [];
    page.on("console", (message) => blocked.push(message.text()));
    await page.goto(refusing.url);
    await expect.poll(() => blocked.some((text) => /frame-ancestors/.test(text))).toBe(true);
    await expect(page.frameLocator("iframe").getByRole("heading", { name: /Embeddable tone/ })).toHaveCount(0);
  } finally {
    refusing.server.close();
  }
});

test("the embed page at a phone's and a desktop's width, light and dark, with no accessibility violations", async ({ page }) => {
  const errors = await watchConsole(page);
  await page.goto(`/embed/p/${made.postId}?t=5`);
  await expect(page.locator("audio")).toBeAttached({ timeout: 20_000 });
  await expect(page.getByRole("group", { name: "Comments on the timeline" }).getByRole("button")).toHaveCount(2);
  await checkPage(page, "embed");
  // At the frame's own size, as the oEmbed answer asks for it.
  await page.setViewportSize({ width: 560, height: 180 });
  await page.screenshot({ path: "e2e/screenshots/embed-560x180.png" });
  await page.setViewportSize({ width: 320, height: 180 });
  await page.screenshot({ path: "e2e/screenshots/embed-320x180.png" });
  expect(errors).toEqual([]);

  // A hosted video waits for a press, its frame 16:9 within the height the frame gives it.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/embed/p/${made.videoId}`);
  await expect(page.getByRole("button", { name: "Play A video link" })).toBeVisible();
  await checkPage(page, "embed-video");
  await page.setViewportSize({ width: 560, height: 400 });
  const box = (await page.getByRole("button", { name: "Play A video link" }).boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(400);
  await page.screenshot({ path: "e2e/screenshots/embed-video-560x400.png" });
  expect(errors).toEqual([]);
});

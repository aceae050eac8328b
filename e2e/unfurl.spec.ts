import { mkdirSync, writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Link previews as an unfurling bot sees them: Playwright's `request` (no browser, no JavaScript, no
// cookies) fetches a room, a post and a comment's page, reads their Open Graph and X card tags, and
// fetches the picture they name: a 1200×630 PNG. A gated room's pages say its name, its gate and
// "members only" and nothing of its posts or comments. The pictures are saved under e2e/screenshots.

const secretTitle = "Unfurl-secret premiere title";
const secretComment = "unfurl-secret-whispered-comment";
const secretThumbnail = "https://i.ytimg.com/vi/unfurlSecretThumb/hqdefault.jpg";
const postTitle = "Sunrise over the harbour, recorded live from the pier at dawn";
const longComment =
  "When the strings come in right here 🔥🔥 the whole room goes quiet — I have played this part maybe forty times now and every single time the low end catches me off guard. Thank you for sharing it 🙏🏽👨‍👩‍👧";
const hiddenComment = "unfurl-hidden-comment-words";

/** A width×height PNG: a smooth diagonal blend of two colours (like album art), for a room's cover. */
function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) rows[row + 1 + x * 3 + c] = Math.round(from[c] + (to[c] - from[c]) * t);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function giveCover(roomId: string, from: [number, number, number], to: [number, number, number]) {
  const path = `${roomId}/cover-${Date.now()}.png`;
  const { error } = await service.storage.from("room-covers").upload(path, gradientPng(600, 600, from, to), { contentType: "image/png" });
  expect(error).toBeNull();
  expect((await service.from("rooms").update({ cover_path: path }).eq("id", roomId)).error).toBeNull();
}

async function linkPost(roomId: string, authorId: string, title: string, thumbnail: string) {
  const { data, error } = await service
    .from("posts")
    .insert({
      room_id: roomId,
      author_id: authorId,
      title,
      media_kind: "embed",
      media_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      duration_seconds: 300,
      embed: { provider: "youtube", provider_name: "YouTube", title, thumbnail_url: thumbnail, width: 480, height: 360 },
    } as never)
    .select("id")
    .single();
  if (error || !data) throw error;
  return (data as { id: string }).id;
}

async function comment(postId: string, authorId: string, at: number | null, body: string) {
  const { data, error } = await service
    .from("moments")
    .insert({ post_id: postId, author_id: authorId, at_seconds: at, body } as never)
    .select("id")
    .single();
  if (error || !data) throw error;
  return (data as { id: string }).id;
}

async function fixtures() {
  const poster = await createConfirmedUser("unfurl-poster");
  const client = await signedInClient(poster.email, poster.password);
  const room = await createRoomAs(client, "unfurl-room");
  await service.from("rooms").update({ description: "Field recordings from harbours and piers at first light." }).eq("id", room.id);
  await giveCover(room.id, [109, 40, 217], [251, 146, 60]);
  const postId = await linkPost(room.id, poster.id, postTitle, "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
  const momentId = await comment(postId, poster.id, 102, longComment);
  const hiddenId = await comment(postId, poster.id, 40, hiddenComment);
  await service
    .from("moments")
    .update({ hidden_at: new Date().toISOString() } as never)
    .eq("id", hiddenId);

  const gated = await createRoomAs(client, "unfurl-gated", true);
  await giveCover(gated.id, [28, 25, 23], [109, 40, 217]);
  const gatedPostId = await linkPost(gated.id, poster.id, secretTitle, secretThumbnail);
  const gatedMomentId = await comment(gatedPostId, poster.id, 3, secretComment);
  return {
    poster: await profileOf(poster.id),
    room,
    postId,
    momentId,
    hiddenId,
    gated: { room: gated, postId: gatedPostId, momentId: gatedMomentId },
  };
}

let made: Awaited<ReturnType<typeof fixtures>>;
test.beforeAll(async () => {
  made = await fixtures();
});

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
    name[0] === "#" ? String.fromCodePoint(Number(name[1] === "x" ? `0${name.slice(1)}` : name.slice(1))) : (entities[name] ?? whole),
  );

/** The page's og:* and twitter:* tags, as a bot reads the HTML it was sent. */
async function tagsOf(response: APIResponse): Promise<Record<string, string>> {
  expect(response.status()).toBe(200);
  const html = await response.text();
  const tags: Record<string, string> = {};
  for (const [meta] of html.matchAll(/<meta\b[^>]*>/g)) {
    const key = /(?:property|name)="((?:og|twitter):[^"]+)"/.exec(meta)?.[1];
    const content = /content="([^"]*)"/.exec(meta)?.[1];
    if (key && content !== undefined && !(key in tags)) tags[key] = decode(content);
  }
  return tags;
}

/** Fetches the picture a page names: a PNG whose header says 1200×630, with a cache lifetime. */
async function pictureOf(bot: APIRequestContext, url: string, screenshot?: string): Promise<Buffer> {
  const response = await bot.get(url);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  expect(response.headers()["cache-control"]).toMatch(/public, max-age=\d+, stale-while-revalidate=\d+/);
  const png = await response.body();
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.toString("latin1", 12, 16)).toBe("IHDR");
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width: 1200, height: 630 });
  if (screenshot) {
    mkdirSync("e2e/screenshots", { recursive: true });
    writeFileSync(`e2e/screenshots/${screenshot}.png`, png);
  }
  return png;
}

function expectCard(tags: Record<string, string>, { title, url }: { title: string; url: string }) {
  expect(tags).toMatchObject({
    "og:title": title,
    "og:url": url,
    "og:site_name": "Cuepoint",
    "og:type": "website",
    "og:image:width": "1200",
    "og:image:height": "630",
    "twitter:card": "summary_large_image",
    "twitter:title": title,
  });
  expect(tags["og:description"]).toBeTruthy();
  expect(tags["twitter:description"]).toBe(tags["og:description"]);
  expect(tags["og:image:alt"]).toBeTruthy();
  expect(tags["twitter:image"]).toBe(tags["og:image"]);
}

test("a public room, post and comment unfurl: their tags, and a 1200×630 PNG that caches by version", async ({ request: bot, baseURL }) => {
  test.setTimeout(90_000);
  const roomTags = await tagsOf(await bot.get(`/r/${made.room.slug}`));
  expectCard(roomTags, { title: made.room.name, url: `${baseURL}/r/${made.room.slug}` });
  expect(roomTags["og:description"]).toBe("Field recordings from harbours and piers at first light.");
  expect(roomTags["og:image"]).toMatch(new RegExp(`^${baseURL}/og/r/${made.room.slug}\\?v=[0-9a-z]+$`));
  await pictureOf(bot, roomTags["og:image"], "unfurl-room-with-cover");
  // Asked for at its current version, the picture may be kept an hour; at any other, five minutes.
  expect((await bot.get(roomTags["og:image"])).headers()["cache-control"]).toBe("public, max-age=3600, stale-while-revalidate=86400");
  expect((await bot.get(`/og/r/${made.room.slug}?v=old`)).headers()["cache-control"]).toBe(
    "public, max-age=300, stale-while-revalidate=60",
  );

  const postUrl = `${baseURL}/r/${made.room.slug}/p/${made.postId}`;
  const postTags = await tagsOf(await bot.get(postUrl));
  expectCard(postTags, { title: postTitle, url: postUrl });
  expect(postTags["og:description"]).toContain(`Shared by ${made.poster.display_name} in ${made.room.name}`);
  expect(postTags["og:image"]).toMatch(new RegExp(`^${baseURL}/og/r/${made.room.slug}/p/${made.postId}\\?v=`));
  // Its thumbnail's host is not reachable from here: the picture comes anyway, with the room's cover, in good time.
  const started = Date.now();
  await pictureOf(bot, postTags["og:image"], "unfurl-public-post");
  expect(Date.now() - started).toBeLessThan(10_000);

  // A comment's own link: the bot follows /m's redirect to the post at its time, whose tags describe the comment.
  const momentResponse = await bot.get(`/m/${made.momentId}`);
  expect(new URL(momentResponse.url()).search).toBe(`?t=102&comment=${made.momentId}`);
  const momentTags = await tagsOf(momentResponse);
  // The post's long title is clipped inside its quotes.
  const momentTitle = momentTags["og:title"];
  expect(momentTitle).toMatch(new RegExp(`^${made.poster.display_name} at 1:42 of “Sunrise over the harbour.*…”$`));
  expect(Array.from(momentTitle).length).toBeLessThanOrEqual(70);
  expectCard(momentTags, { title: momentTitle, url: `${baseURL}/m/${made.momentId}` });
  expect(momentTags["og:description"]).toContain("When the strings come in right here 🔥🔥 the whole room goes quiet");
  expect(momentTags["og:description"]).toMatch(/…” — in /);
  expect(momentTags["og:image"]).toMatch(new RegExp(`^${baseURL}/og/m/${made.momentId}\\?v=`));
  // Emoji in the words: the picture leaves them out rather than fail.
  await pictureOf(bot, momentTags["og:image"], "unfurl-moment-long-comment");

  // An edit is a new picture URL.
  await service
    .from("moments")
    .update({ body: "Shorter words now" } as never)
    .eq("id", made.momentId);
  const edited = await tagsOf(await bot.get(`/m/${made.momentId}`));
  expect(edited["og:description"]).toContain("Shorter words now");
  expect(edited["og:image"]).not.toBe(momentTags["og:image"]);
  await service
    .from("moments")
    .update({ body: longComment } as never)
    .eq("id", made.momentId);

  // A hidden comment's link previews its post, never its words.
  const hiddenTags = await tagsOf(await bot.get(`/m/${made.hiddenId}`));
  expect(hiddenTags["og:title"]).toBe(postTitle);
  expect(JSON.stringify(hiddenTags)).not.toContain(hiddenComment);
  const hiddenPicture = await bot.get(`/og/m/${made.hiddenId}`);
  expect(hiddenPicture.status()).toBe(200);
  expect(await hiddenPicture.body()).toEqual(await pictureOf(bot, `/og/r/${made.room.slug}/p/${made.postId}`));

  // Nothing there: no picture.
  expect((await bot.get("/og/m/00000000-0000-4000-8000-000000000000")).status()).toBe(404);
  expect((await bot.get("/og/r/no-such-room-here")).status()).toBe(404);
});

test("a gated room's room, post and comment links unfurl as the room: its name, its gate, 'members only' — no title, comment or thumbnail", async ({
  request: bot,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { room, postId, momentId } = made.gated;
  const roomPicture = `/og/r/${room.slug}`;
  const pages = [
    { path: `/r/${room.slug}`, url: `${baseURL}/r/${room.slug}` },
    { path: `/r/${room.slug}/p/${postId}`, url: `${baseURL}/r/${room.slug}/p/${postId}` },
    { path: `/r/${room.slug}/p/${postId}?t=3&comment=${momentId}`, url: `${baseURL}/r/${room.slug}/p/${postId}` },
    { path: `/m/${momentId}`, url: `${baseURL}/m/${momentId}` },
  ];
  const roomPng = await pictureOf(bot, roomPicture, "unfurl-gated");
  for (const { path, url } of pages) {
    const response = await bot.get(path);
    const html = await response.text();
    const tags = await tagsOf(response);
    expectCard(tags, { title: `${room.name} · Members only`, url });
    expect(tags["og:description"]).toMatch(/^Members only\. Holders of .+ on Local chain\./);
    expect(tags["og:image"]).toMatch(new RegExp(`^${baseURL}${roomPicture}\\?v=`));
    for (const secret of [secretTitle, secretComment, secretThumbnail, "unfurlSecretThumb"]) expect(html).not.toContain(secret);
    // The picture is the room's, whichever page names it.
    expect(await pictureOf(bot, tags["og:image"])).toEqual(roomPng);
  }
  // The post's and the comment's own picture routes draw the room too, byte for byte.
  expect(await pictureOf(bot, `/og/r/${room.slug}/p/${postId}`)).toEqual(roomPng);
  expect(await pictureOf(bot, `/og/m/${momentId}`)).toEqual(roomPng);
  // The oEmbed answer says nothing of them either.
  for (const url of [`${baseURL}/r/${room.slug}/p/${postId}`, `${baseURL}/m/${momentId}`]) {
    const answer = await bot.get(`/oembed?${new URLSearchParams({ url, format: "json" })}`);
    expect(answer.status()).toBe(404);
    const text = await answer.text();
    for (const secret of [secretTitle, secretComment, secretThumbnail]) expect(text).not.toContain(secret);
  }
});

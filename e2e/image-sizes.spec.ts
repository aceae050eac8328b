import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { apiUrl, createConfirmedUser } from "./support/users";

// Avatars and covers arrive at the size they are drawn (Storage's image transformations): on the
// home page, the directory and a post page every such picture is a resized copy that loads, and the
// bytes the page downloads for them are a small part of the uploaded files'. The figures are printed.

/**
 * A width×height PNG like a photo as far as sizes go: shapes at several scales with grain on top,
 * so neither the upload nor its resized copies compress to nothing.
 */
function photoLikePng(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let seed = 7;
  const grain = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) / 8 - 16;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shape = 60 * Math.sin(x / 53) * Math.cos(y / 41) + 30 * Math.sin((x + 2 * y) / 13);
      const at = y * (width * 3 + 1) + 1 + x * 3;
      rows[at] = Math.max(0, Math.min(255, 128 + shape + grain()));
      rows[at + 1] = Math.max(0, Math.min(255, 96 + shape / 2 + (y * 64) / height + grain()));
      rows[at + 2] = Math.max(0, Math.min(255, 160 - shape + grain()));
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

async function giveAvatar(userId: string): Promise<string> {
  const path = `${userId}/avatar-${Date.now()}.png`;
  const { error } = await service.storage.from("avatars").upload(path, photoLikePng(800, 800), { contentType: "image/png" });
  expect(error).toBeNull();
  expect((await service.from("profiles").update({ avatar_path: path }).eq("id", userId)).error).toBeNull();
  return path;
}

async function giveCover(roomId: string): Promise<void> {
  const path = `${roomId}/cover-${Date.now()}.png`;
  const { error } = await service.storage.from("room-covers").upload(path, photoLikePng(1500, 600), { contentType: "image/png" });
  expect(error).toBeNull();
  expect((await service.from("rooms").update({ cover_path: path }).eq("id", roomId)).error).toBeNull();
}

interface Drawn {
  src: string;
  cssWidth: number;
  naturalWidth: number;
  bytes: number;
  originalBytes: number;
}

/** Every Storage picture on the page once it has loaded: what was fetched for it and what its upload weighs. */
async function storagePictures(page: Page): Promise<Drawn[]> {
  const images = page.locator('img[src*="/storage/v1/"]');
  await expect(images.first()).toBeVisible();
  const drawn = await images.evaluateAll((nodes) =>
    (nodes as HTMLImageElement[]).map((img) => ({
      src: img.currentSrc,
      cssWidth: img.width,
      naturalWidth: img.naturalWidth,
      complete: img.complete,
    })),
  );
  const result: Drawn[] = [];
  const seen = new Set<string>();
  for (const image of drawn) {
    expect(image.complete && image.naturalWidth > 0, `${image.src} loads`).toBe(true);
    const url = new URL(image.src);
    expect(url.pathname).toContain("/storage/v1/render/image/public/");
    // The browser fetches a URL once however often it is drawn; before, it fetched each original once.
    if (seen.has(image.src)) continue;
    seen.add(image.src);
    const firstOfObject = !seen.has(url.pathname);
    seen.add(url.pathname);
    const bytes = (await (await fetch(image.src, { headers: { Accept: "image/avif,image/webp,*/*" } })).arrayBuffer()).byteLength;
    const original = `${apiUrl}${url.pathname.replace("/render/image/public/", "/object/public/")}`;
    const originalBytes = firstOfObject ? Number((await fetch(original, { method: "HEAD" })).headers.get("content-length")) : 0;
    result.push({ src: image.src, cssWidth: image.cssWidth, naturalWidth: image.naturalWidth, bytes, originalBytes });
  }
  return result;
}

test("avatars and covers are fetched at their drawn size on home, the directory and a post page", async ({ browser }) => {
  test.setTimeout(120_000);
  const [ada, bo, cy] = await Promise.all([createConfirmedUser("img-ada"), createConfirmedUser("img-bo"), createConfirmedUser("img-cy")]);
  await Promise.all([ada, bo, cy].map((person) => giveAvatar(person.id)));
  const adaClient = await signedInClient(ada.email, ada.password);
  const rooms = [await createRoomAs(adaClient, "img-one"), await createRoomAs(adaClient, "img-two")];
  for (const room of rooms) {
    await giveCover(room.id);
    await addMember(room.id, bo.id);
    await addMember(room.id, cy.id);
  }
  // Bo and Cy have the first room open: Ada's home shows their avatars there.
  for (const person of [bo, cy]) {
    const client = await signedInClient(person.email, person.password);
    expect((await client.rpc("mark_here", { target_room: rooms[0].id, tab: randomUUID() })).error).toBeNull();
  }
  const { data: post, error } = await adaClient
    .from("posts")
    .insert({
      room_id: rooms[0].id,
      author_id: ada.id,
      title: "Pictures at their size",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 240,
    })
    .select("id")
    .single();
  expect(error).toBeNull();

  const figures: string[] = [];
  for (const deviceScaleFactor of [1, 3]) {
    const context = await browser.newContext({ deviceScaleFactor, viewport: { width: deviceScaleFactor === 1 ? 1280 : 390, height: 900 } });
    const page = await context.newPage();
    const errors = await watchConsole(page);
    await signInWithPassword(page, ada.email, ada.password);
    await page.waitForURL("/");
    await expect(page.getByTestId("your-room").filter({ hasText: rooms[0].name })).toBeVisible();
    await page.waitForLoadState("networkidle");
    const home = await storagePictures(page);
    // The header's avatar, Bo's and Cy's here-now avatars, the covers of Ada's rooms.
    expect(home.length).toBeGreaterThanOrEqual(5);
    for (const image of home)
      expect(image.naturalWidth, `${image.src} drawn ${image.cssWidth} px wide at ${deviceScaleFactor}x`).toBeLessThanOrEqual(
        // (a flex row may squeeze a 28 px avatar by a pixel or two)
        Math.ceil((image.cssWidth + 2) * deviceScaleFactor),
      );
    const avatars = home.filter((image) => image.src.includes("/avatars/"));
    const sum = (list: Drawn[], key: "bytes" | "originalBytes") => list.reduce((total, image) => total + image[key], 0);
    expect(sum(avatars, "bytes") * 20).toBeLessThan(sum(avatars, "originalBytes"));
    figures.push(
      `home at ${deviceScaleFactor}x: ${avatars.length} avatars ${sum(avatars, "bytes")} B (originals ${sum(avatars, "originalBytes")} B); ` +
        `all ${home.length} pictures ${sum(home, "bytes")} B (originals ${sum(home, "originalBytes")} B)`,
    );
    if (deviceScaleFactor === 1) await checkPage(page, "home-resized-pictures");

    await page.goto(`/?q=${encodeURIComponent(rooms[0].name)}`);
    const directory = await storagePictures(page);
    expect(directory.length).toBeGreaterThanOrEqual(1);
    if (deviceScaleFactor === 1) await checkPage(page, "directory-resized-covers");

    await page.goto(`/r/${rooms[0].slug}/p/${(post as { id: string }).id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Pictures at their size" })).toBeVisible();
    const postPage = await storagePictures(page);
    expect(postPage.some((image) => image.src.includes(`/avatars/${ada.id}/`))).toBe(true);
    if (deviceScaleFactor === 1) await checkPage(page, "post-resized-avatars");
    figures.push(
      `directory at ${deviceScaleFactor}x: ${sum(directory, "bytes")} B (originals ${sum(directory, "originalBytes")} B); ` +
        `post page: ${sum(postPage, "bytes")} B (originals ${sum(postPage, "originalBytes")} B)`,
    );
    expect(errors).toEqual([]);
    await context.close();
  }
  console.log(figures.join("\n"));
  test.info().annotations.push({ type: "bytes", description: figures.join("; ") });
});

import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, filesIn, insertLegacyLinkPost, postsIn, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// Posts as a member makes them: links (details from the local oEmbed stand-ins for YouTube and Vimeo),
// uploads with a progress bar, played on the post page; refusals before any byte is sent; a
// cancelled upload and a deleted post leave no file; a gated room shows nothing to outsiders.

const youtubeLink = "https://www.youtube.com/watch?v=jNQXAC9IVRw";
const vimeoLink = "https://vimeo.com/76979871";
// A 1×1 PNG: what the stand-in answers for provider thumbnails (i.ytimg.com, i.vimeocdn.com), as the internet is not here.
const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** Hosts outside this machine, answered locally: provider thumbnails and player scripts, and a file host. */
async function standInForTheInternet(page: Page) {
  for (const thumbnails of ["https://i.ytimg.com/**", "https://i.vimeocdn.com/**"])
    await page.route(thumbnails, (route) => route.fulfill({ status: 200, contentType: "image/png", body: pixel }));
  await page.route("https://www.youtube.com/**", (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }));
  await page.route("https://media.cuepoint-files.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "audio/wav", body: Buffer.from(wavFile(2)) }),
  );
}

async function expectPlays(page: Page) {
  const media = page.locator("main audio, main video").first();
  await expect(media).toBeAttached();
  await media.evaluate((element: HTMLMediaElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => media.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
}

/** A short WebM video, recorded in the browser from a canvas (a real file, made here). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext("2d")!;
    const recorder = new MediaRecorder(canvas.captureStream(15), { mimeType: "video/webm" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 15; frame++) {
      context.fillStyle = `hsl(${frame * 24}, 80%, 50%)`;
      context.fillRect(0, 0, 64, 48);
      await new Promise((resolve) => setTimeout(resolve, 70));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
    let text = "";
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  });
  return Buffer.from(base64, "base64");
}

async function slowUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return () => cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

test("a member shares a link: its title and thumbnail in the feed, the player on its page; a file link plays", async ({ page }) => {
  const errors = await watchConsole(page);
  await standInForTheInternet(page);
  const member = await createConfirmedUser("poster");
  const room = await createRoomAs(await signedInClient(member.email, member.password), "listening-club");
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();

  const form = page.getByRole("form", { name: "Share a link" });
  await form.getByLabel("Link").fill("javascript:alert(1)");
  await form.getByLabel("Title").fill("t".repeat(121));
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(page.locator("#url-error")).toContainText("https://");
  await expect(page.locator("#title-error")).toHaveText("Titles are up to 120 characters");
  await form.getByLabel("Link").fill("https://example.com/not-a-player.html");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(page.locator("#url-error")).toContainText("can't play");
  expect(await postsIn(room.id)).toEqual([]);

  await form.getByLabel("Link").fill(youtubeLink);
  await form.getByLabel("Title").fill("The first video");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(form.getByRole("status")).toContainText("Posted.");
  await expect(form.getByLabel("Title")).toHaveValue("");
  const feed = page.getByRole("region", { name: "Posts" });
  const card = feed.getByRole("listitem").filter({ hasText: "The first video" });
  await expect(card).toContainText("YouTube · jawed");
  await expect(card.locator("img")).toHaveAttribute("src", /^https:\/\/i\.ytimg\.com\/vi\/jNQXAC9IVRw\//);
  await expect.poll(() => card.locator("img").evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  const [stored] = await postsIn(room.id);
  expect(stored.embed).toMatchObject({ provider: "youtube", title: "Me at the zoo", author: "jawed" });
  await checkPage(page, "room-feed");

  await card.getByRole("link", { name: "The first video" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The first video");
  await expect(page.getByText("YouTube · Me at the zoo · by jawed")).toBeVisible();
  // A hosted player waits for the person: the thumbnail and a play button until then, no player.
  const play = page.getByRole("button", { name: "Play The first video" });
  await expect(play.locator("img")).toHaveAttribute("src", /^https:\/\/i\.ytimg\.com\/vi\/jNQXAC9IVRw\//);
  await checkPage(page, "post-link");
  await expect(page.locator("youtube-video")).toHaveCount(0);
  await play.click();
  await expect(page.locator("[data-player-ready=true] youtube-video")).toHaveAttribute("src", youtubeLink);
  await expect(play).toHaveCount(0);

  // A Vimeo link: the provider says how long it is, so the feed shows its length and its page shows
  // the comments' markers on the seek bar before anyone has pressed play (no player loaded yet).
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();
  await form.getByLabel("Link").fill(vimeoLink);
  await form.getByLabel("Title").fill("A Vimeo video");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(form.getByRole("status")).toContainText("Posted.");
  const vimeoCard = feed.getByRole("listitem").filter({ hasText: "A Vimeo video" });
  await expect(vimeoCard).toContainText("Vimeo · Vimeo");
  await expect(vimeoCard).toContainText("1:02");
  const vimeoPost = (await postsIn(room.id)).find((post) => post.title === "A Vimeo video")!;
  expect(Number(vimeoPost.duration_seconds)).toBe(62);
  expect(
    (await service.from("moments").insert({ post_id: vimeoPost.id, author_id: member.id, at_seconds: 30, body: "Here it opens up" })).error,
  ).toBeNull();
  await vimeoCard.getByRole("link", { name: "A Vimeo video" }).click();
  await expect(page.getByText("Vimeo · The New Vimeo Player (You Know, For Videos) · by Vimeo · 1:02")).toBeVisible();
  await expect(
    page.getByRole("group", { name: "Comments on the timeline" }).getByRole("button", { name: /^Comment at 0:30 by / }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Play A Vimeo video" })).toBeVisible();
  await expect(page.locator("vimeo-video")).toHaveCount(0);
  await checkPage(page, "post-link-length-known");

  // The provider does not answer (the local YouTube stand-in stalls on this link): posted without details.
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();
  await form.getByLabel("Link").fill("https://youtu.be/slow0000000");
  await form.getByLabel("Title").fill("Slow provider");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(form.getByRole("status")).toHaveText(
    "Posted. We couldn't reach YouTube to read this link's details — you can still post it",
    { timeout: 20_000 },
  );
  await expect(feed.getByRole("listitem").filter({ hasText: "Slow provider" })).toContainText("youtu.be");
  expect((await postsIn(room.id)).find((post) => post.title === "Slow provider")?.embed).toBeNull();
  // Without the link's details there is no thumbnail: a dark frame and the play button, the same wait.
  await feed.getByRole("link", { name: "Slow provider" }).click();
  const playSlow = page.getByRole("button", { name: "Play Slow provider" });
  await expect(playSlow).toBeVisible();
  await expect(playSlow.locator("img")).toHaveCount(0);
  await expect(page.locator("youtube-video")).toHaveCount(0);
  await playSlow.click();
  await expect(page.locator("[data-player-ready=true] youtube-video")).toHaveAttribute("src", "https://youtu.be/slow0000000");
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();

  await form.getByLabel("Link").fill("https://media.cuepoint-files.com/tone.wav");
  await form.getByLabel("Title").fill("A file on the web");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(form.getByRole("status")).toContainText("Posted.");
  await feed.getByRole("link", { name: "A file on the web" }).click();
  await expectPlays(page);
  expect(errors).toEqual([]);
});

test("uploads: refused before sending when too large or not media; audio and video upload with progress and play; cancel and delete leave no file", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const member = await createConfirmedUser("uploader");
  const room = await createRoomAs(await signedInClient(member.email, member.password), "upload-room");
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();
  await page.getByRole("button", { name: "Upload a file" }).click();
  const form = page.getByRole("form", { name: "Upload a file" });
  const fileInput = form.getByLabel("Audio or video file");

  const dir = mkdtempSync(path.join(tmpdir(), "cuepoint-posts-"));
  const huge = path.join(dir, "huge.mp4");
  writeFileSync(huge, "");
  truncateSync(huge, 60 * 1024 * 1024);
  let uploadRequests = 0;
  page.on(
    "request",
    (request) => request.url().includes("/storage/v1/object/upload/sign/") && request.method() === "PUT" && uploadRequests++,
  );
  await fileInput.setInputFiles(huge);
  await expect(page.locator("#media-file-error")).toHaveText("Files up to 50 MB");
  await fileInput.setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(page.locator("#media-file-error")).toHaveText("Choose an audio or video file");
  await form.getByRole("button", { name: "Upload and post" }).click();
  await expect(page.locator("#media-file-error")).toHaveText("Choose an audio or video file");
  expect(uploadRequests).toBe(0);

  // Audio, slowed down so the progress bar is seen.
  const restore = await slowUploads(page, 256 * 1024);
  await fileInput.setInputFiles({ name: "tone.wav", mimeType: "audio/wav", buffer: Buffer.from(wavFile(40)) });
  await form.getByLabel("Title").fill("A tone");
  await form.getByRole("button", { name: "Upload and post" }).click();
  const progress = form.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toBeVisible();
  await checkPage(page, "room-uploading");
  await expect(form.getByRole("status")).toHaveText("Posted.", { timeout: 30_000 });
  await expect(progress).toBeHidden();
  await restore();
  const [audio] = await postsIn(room.id);
  expect(audio).toMatchObject({ title: "A tone", media_kind: "upload", duration_seconds: 40 });
  expect(await filesIn(room.id, member.id)).toEqual([audio.storage_path]);

  // Cancelled while the file is on its way (held here, as a slow connection would): no post, no file.
  const signedUploads = "**/storage/v1/object/upload/sign/**";
  let held = false;
  await page.route(signedUploads, (route) => {
    if (route.request().method() !== "PUT") return route.continue();
    held = true; // never answered: the upload is still in flight when the person cancels
  });
  await fileInput.setInputFiles({ name: "long.wav", mimeType: "audio/wav", buffer: Buffer.from(wavFile(60)) });
  await form.getByLabel("Title").fill("Never mind");
  await form.getByRole("button", { name: "Upload and post" }).click();
  await expect(progress).toBeVisible();
  await expect.poll(() => held).toBe(true);
  await form.getByRole("button", { name: "Cancel upload" }).click();
  await expect(form.getByRole("alert")).toHaveText("Upload cancelled — nothing was posted.");
  await expect(form.getByLabel("Title")).toHaveValue("Never mind");
  await page.unroute(signedUploads);
  expect((await postsIn(room.id)).map((post) => post.title)).toEqual(["A tone"]);
  await expect.poll(() => filesIn(room.id, member.id)).toEqual([audio.storage_path]);

  // Video, recorded here.
  const webm = await recordWebm(page);
  await fileInput.setInputFiles({ name: "colours.webm", mimeType: "video/webm", buffer: webm });
  await form.getByLabel("Title").fill("Colours");
  await form.getByRole("button", { name: "Upload and post" }).click();
  await expect(form.getByRole("status")).toHaveText("Posted.");
  const feed = page.getByRole("region", { name: "Posts" });
  await expect(feed.getByRole("listitem")).toHaveCount(2);
  await expect(feed.getByRole("listitem").first()).toContainText("Colours");
  await expect(feed.getByRole("listitem").last()).toContainText("0:40");

  await feed.getByRole("link", { name: "Colours" }).click();
  await expect(page.locator("main video")).toHaveAttribute("src", /\/storage\/v1\/object\/sign\/media\/.+\.webm\?token=/);
  await expectPlays(page);
  await checkPage(page, "post-video");

  // The author edits the title and text; a title over 120 characters is refused and stays typed.
  await page.getByRole("button", { name: "Edit post" }).click();
  const edit = page.getByRole("form", { name: "Edit post" });
  await edit.getByLabel("Title").fill("c".repeat(121));
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#title-error")).toHaveText("Titles are up to 120 characters");
  await expect(edit.getByLabel("Title")).toHaveValue("c".repeat(121));
  await edit.getByLabel("Title").fill("Colours, edited");
  await edit.getByLabel("Text").fill("Fifteen frames of colour.");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Colours, edited");
  await expect(page.getByText("Fifteen frames of colour.")).toBeVisible();

  await page.goto(`/r/${room.slug}`);
  await feed.getByRole("link", { name: "A tone" }).click();
  await expect(page.locator("main audio")).toBeAttached();
  await expectPlays(page);
  await checkPage(page, "post-audio");

  // Deleting the post deletes its file.
  await page.getByRole("button", { name: "Delete post" }).click();
  await page.getByRole("button", { name: "Yes, delete it" }).click();
  await page.waitForURL(`/r/${room.slug}`);
  await expect(feed.getByRole("link", { name: "A tone" })).toHaveCount(0);
  expect((await postsIn(room.id)).map((post) => post.title)).toEqual(["Colours, edited"]);
  const remaining = await filesIn(room.id, member.id);
  expect(remaining).toHaveLength(1);
  expect(remaining).not.toContain(audio.storage_path);
  expect(errors).toEqual([]);
});

test("a gated room's posts: nothing for someone who is not a member, on the page or through REST", async ({ page }) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("gate-owner");
  const outsider = await createConfirmedUser("gate-outsider");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "holders-only", true);
  const { data: post, error } = await ownerClient
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: owner.id,
      title: "Secret session",
      body: "For holders",
      media_kind: "embed",
      media_url: youtubeLink,
    })
    .select("id")
    .single();
  expect(error).toBeNull();

  await signInWithPassword(page, outsider.email, outsider.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await expect(page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  await expect(page.getByText("Secret session")).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Share a link" })).toHaveCount(0);
  await checkPage(page, "room-gated-outsider");

  await page.goto(`/r/${room.slug}/p/${post!.id}`);
  await expect(page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  expect(await page.content()).not.toContain("Secret session");
  expect(await page.content()).not.toContain("For holders");
  await checkPage(page, "post-gated-outsider");

  const outsiderClient = await signedInClient(outsider.email, outsider.password);
  expect((await outsiderClient.from("posts").select("id").eq("room_id", room.id)).data).toEqual([]);
  expect((await service.from("posts").select("id").eq("room_id", room.id)).data).toHaveLength(1);
  expect(errors).toEqual([]);
});

test("an unknown post is not found", async ({ page }) => {
  const member = await createConfirmedUser("finder");
  const room = await createRoomAs(await signedInClient(member.email, member.password), "empty-room");
  const response = await page.goto(`/r/${room.slug}/p/00000000-0000-4000-8000-000000000000`);
  expect(response?.status()).toBe(404);
});

test("a hostile link stored before the database held links to the form's rule: the feed still shows, live too, and the post page says the link can't be played", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const member = await createConfirmedUser("hostile");
  const client = await signedInClient(member.email, member.password);
  const room = await createRoomAs(client, "hostile-links");
  const fine = await client
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: member.id,
      title: "A fine track",
      media_kind: "embed",
      media_url: "https://media.cuepoint-files.com/fine.wav",
    })
    .select("id")
    .single();
  expect(fine.error).toBeNull();
  // Through REST the database now refuses such a link; rows from before stay, and must render.
  const refused = await client
    .from("posts")
    .insert({ room_id: room.id, author_id: member.id, title: "Refused", media_kind: "embed", media_url: "https://[x]" });
  expect(refused.error?.code).toBe("23514");
  const hostile = await insertLegacyLinkPost({
    room_id: room.id,
    author_id: member.id,
    title: "Broken on purpose",
    media_url: "https://[x]",
  });

  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  const response = await page.goto(`/r/${room.slug}`);
  expect(response?.status()).toBe(200);
  const feed = page.getByRole("main");
  await expect(feed.getByRole("link", { name: "A fine track" })).toBeVisible();
  await expect(feed.getByRole("link", { name: "Broken on purpose" })).toBeVisible();

  // One more arrives live while the page is open (once it is following the room): it shows, and the page stays up.
  await expect(page.getByRole("region", { name: "Here now" }).getByRole("status")).toHaveText("Live", { timeout: 20_000 });
  await insertLegacyLinkPost({ room_id: room.id, author_id: member.id, title: "Broken live", media_url: "https://a:99999/" });
  await expect(feed.getByRole("link", { name: "Broken live" })).toBeVisible({ timeout: 10_000 });
  await expect(feed.getByRole("link", { name: "A fine track" })).toBeVisible();

  await page.goto(`/r/${room.slug}/p/${hostile}`);
  await expect(page.getByRole("heading", { name: "Broken on purpose" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "This post's link can't be played" })).toBeVisible();
  await expect(page.getByLabel("Your comment")).toBeVisible(); // the conversation goes on
  await checkPage(page, "post-hostile-link");
  expect(errors).toEqual([]);
});

import { expect, type Page, test } from "@playwright/test";
import { rampThenHalf, shapedTone, wavBytes } from "../tests/helpers/audio-fixtures";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, postsIn, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// Waveforms as a person meets them: a file uploaded through the form gets its waveform from the
// browser while it uploads; the post page draws it as the seek bar (played part, the time under the
// pointer, the comments on it), a slider for the keyboard; a file the browser can't decode still
// posts and plays with the plain bar.

/** The bars' heights as drawn (the path of every bar, in device pixels), as shares of the tallest. */
async function drawnBars(page: Page): Promise<number[]> {
  const path = await page.locator('[data-waveform="all"]').getAttribute("d");
  const heights = [...(path ?? "").matchAll(/M-?\d+ -?\d+h\d+v(\d+)h-\d+z/g)].map((match) => Number(match[1]));
  const tallest = Math.max(...heights);
  return heights.map((height) => height / tallest);
}

/** The mean of a stretch of the bars, from and to shares of the width. */
const meanOf = (bars: number[], from: number, to: number) => {
  const part = bars.slice(Math.floor(from * bars.length), Math.floor(to * bars.length));
  return part.reduce((sum, bar) => sum + bar, 0) / part.length;
};

test("an uploaded tone's waveform is drawn as the post's seek bar, in its shape; an undecodable file posts without one", async ({
  page,
  browser,
}) => {
  const errors = await watchConsole(page);
  const member = await createConfirmedUser("waveform");
  const room = await createRoomAs(await signedInClient(member.email, member.password), "waveform-room");
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  await page.getByTestId("add-post").locator("summary").click();
  await page.getByRole("button", { name: "Upload a file" }).click();
  const form = page.getByRole("form", { name: "Upload a file" });

  // 8 s: rising from silence to full scale over 4 s, half as loud for 2 s, then 2 s of silence.
  const rate = 16000;
  const tone = wavBytes([shapedTone(8, rate, rampThenHalf(8))], rate, "pcm16");
  await form.getByLabel("Audio or video file").setInputFiles({ name: "rise.wav", mimeType: "audio/wav", buffer: Buffer.from(tone) });
  await form.getByLabel("Title").fill("A rising tone");
  await form.getByRole("button", { name: "Upload and post" }).click();
  await expect(form.getByRole("status")).toHaveText("Posted.", { timeout: 30_000 });
  const [post] = await postsIn(room.id);
  const { data: stored } = await service.from("posts").select("waveform").eq("id", post.id).single();
  expect(stored?.waveform).toHaveLength(1000);

  // A file the browser can't decode: posted all the same, without a waveform, and nothing said about it.
  await form
    .getByLabel("Audio or video file")
    .setInputFiles({ name: "noise.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("ID3 nothing") });
  await form.getByLabel("Title").fill("Not really sound");
  await form.getByRole("button", { name: "Upload and post" }).click();
  await expect(form.getByRole("status")).toHaveText("Posted.", { timeout: 30_000 });
  await expect(form.getByRole("alert")).toHaveCount(0);
  const undecodable = (await postsIn(room.id)).find((row) => row.title === "Not really sound")!;
  expect((await service.from("posts").select("waveform").eq("id", undecodable.id).single()).data?.waveform).toBeNull();

  // A comment at 6 s: its marker sits on the waveform.
  expect(
    (await service.from("moments").insert({ post_id: post.id, author_id: member.id, at_seconds: 6, body: "Here it drops" })).error,
  ).toBeNull();

  await page.goto(`/r/${room.slug}/p/${post.id}`);
  const slider = page.getByRole("slider", { name: "Seek" });
  await expect(slider).toBeVisible();
  await expect(slider).toHaveAttribute("aria-valuetext", "0:00 of 0:08");
  await expect(
    page.getByRole("group", { name: "Comments on the timeline" }).getByRole("button", { name: /^Comment at 0:06 by / }),
  ).toBeVisible();

  // The drawing has the tone's shape: rising through the first half, lower for a quarter, flat at the end.
  await expect.poll(async () => (await drawnBars(page)).length).toBeGreaterThan(100);
  const bars = await drawnBars(page);
  expect(meanOf(bars, 0, 0.1)).toBeLessThan(0.2);
  expect(meanOf(bars, 0.1, 0.2)).toBeLessThan(meanOf(bars, 0.3, 0.4));
  expect(meanOf(bars, 0.3, 0.4)).toBeLessThan(meanOf(bars, 0.4, 0.5));
  expect(meanOf(bars, 0.45, 0.5)).toBeGreaterThan(0.85);
  expect(Math.abs(meanOf(bars, 0.55, 0.7) - 0.5)).toBeLessThan(0.1);
  expect(meanOf(bars, 0.8, 1)).toBeLessThan(0.05);

  // A slider: the arrows move 5 s, End goes to the end, Home back; a click seeks there.
  await page.waitForSelector('[data-player-ready="true"]');
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveAttribute("aria-valuenow", "5");
  await page.keyboard.press("Home");
  await expect(slider).toHaveAttribute("aria-valuenow", "0");
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
  await expect(slider.getByText("0:02", { exact: true })).toBeVisible(); // the time under the pointer
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  await expect(slider).toHaveAttribute("aria-valuenow", "4");
  await expect.poll(() => page.locator("audio").evaluate((media: HTMLMediaElement) => Math.round(media.currentTime))).toBe(4);
  // The played part: the accent copy of the bars, clipped to half the width.
  const clip = await page
    .locator("clipPath rect")
    .evaluate((rect) => Number(rect.getAttribute("width")) / Number(rect.closest("svg")!.viewBox.baseVal.width));
  expect(clip).toBeCloseTo(0.5, 1);

  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
  await checkPage(page, "post-waveform");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "e2e/screenshots/post-waveform-dark-1280.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // Crisp at a pixel ratio of 2: drawn in device pixels.
  const retina = await browser.newContext({ deviceScaleFactor: 2, viewport: { width: 390, height: 844 } });
  const phone = await retina.newPage();
  await phone.goto(`/r/${room.slug}/p/${post.id}`);
  const phoneSlider = phone.getByRole("slider", { name: "Seek" });
  await expect(phoneSlider).toBeVisible();
  await expect
    .poll(() =>
      phone
        .locator("svg:has([data-waveform])")
        .evaluate((svg: SVGSVGElement) => svg.viewBox.baseVal.width / svg.getBoundingClientRect().width),
    )
    .toBeCloseTo(2, 1);
  await phoneSlider.screenshot({ path: "e2e/screenshots/post-waveform-seek-bar-2x.png" });
  await retina.close();

  // The undecodable upload plays with the plain bar (no slider of its own: the player's controls seek).
  await page.goto(`/r/${room.slug}/p/${undecodable.id}`);
  await expect(page.getByRole("heading", { name: "Not really sound" })).toBeVisible();
  await expect(page.locator("audio")).toHaveCount(1);
  await expect(page.getByRole("slider", { name: "Seek" })).toHaveCount(0);

  expect(errors.filter((line) => !/Failed to load resource|NotSupportedError|no supported source/i.test(line))).toEqual([]);
});

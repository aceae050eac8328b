import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { SupabaseClient } from "@supabase/supabase-js";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// The ready check, four people in four browsers on uploaded files. One follower's media is held back
// (page.route answers their requests for a track only when the test lets it): the host's play waits
// for them, showing who is ready and who is still loading, and starts the moment they are ready; then,
// checking before every track with a 5 s wait, the next track starts without them after 5 s and the
// host's page says so. With everyone's player holding the next track loaded (and saying so), it follows at once.

test.describe.configure({ timeout: 180_000 });

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;
type Seat = { context: BrowserContext; page: Page; errors: string[] };

async function seat(browser: Browser, person: Person, path: string, before?: (context: BrowserContext) => Promise<void>): Promise<Seat> {
  const context = await browser.newContext();
  await before?.(context);
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, person.email, person.password);
  await page.waitForURL("/");
  await page.goto(path);
  return { context, page, errors };
}

const media = (page: Page) => page.locator("main audio:not([data-preload-next]), main video").first();
const pausedOf = (page: Page) => media(page).evaluate((element: HTMLMediaElement) => element.paused);
const hostControls = (page: Page) => page.getByRole("region", { name: "You're hosting" });
const hostButton = (page: Page, name: string) => hostControls(page).getByRole("button", { name, exact: true });
const nowPlaying = (page: Page) => page.getByTestId("now-playing-title");

async function expectOnePrimary(page: Page, name: string) {
  const primary = page.locator("main button.bg-accent:visible:not(section[aria-labelledby='session-moments'] button)");
  await expect(primary).toHaveCount(1);
  await expect(primary).toHaveText(name);
}

async function expectPaused(pages: Page[], paused: boolean, timeout = 5_000) {
  for (const page of pages) await expect.poll(() => pausedOf(page), { timeout, intervals: [100] }).toBe(paused);
}

async function uploadTrack(client: SupabaseClient, roomId: string, userId: string, title: string, seconds: number) {
  const path = `${roomId}/${userId}/${randomUUID()}.wav`;
  const stored = await client.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
  expect(stored.error).toBeNull();
  const { error } = await client
    .from("posts")
    .insert({ room_id: roomId, author_id: userId, title, media_kind: "upload", storage_path: path, duration_seconds: seconds });
  expect(error).toBeNull();
  return path;
}

/** A gate: requests wait at it until `open()`. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function joinSession(page: Page) {
  await page.getByRole("button", { name: "Join the session" }).click();
  await page.getByRole("button", { name: "Mute", exact: true }).click();
}

test("ready check with four people: play waits for a slow buffer and starts once it is ready; before every track, the wait runs out and the host's page says who was not ready; with everyone's next track loaded, it follows at once", async ({
  browser,
}) => {
  const [ada, bo, cy, dee] = await Promise.all(["ready-ada", "ready-bo", "ready-cy", "ready-dee"].map((name) => createConfirmedUser(name)));
  for (const [person, name] of [
    [ada, "Ada"],
    [bo, "Bo"],
    [cy, "Cy"],
    [dee, "Dee"],
  ] as const)
    expect((await service.from("profiles").update({ display_name: name }).eq("id", person.id)).error).toBeNull();
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "ready-check");
  await addMember(room.id, bo.id);
  await addMember(room.id, cy.id);
  await addMember(room.id, dee.id);
  const firstPath = await uploadTrack(adaClient, room.id, ada.id, "Opening tone", 60);
  // The session queues the newest posts first: Second tone, then Third tone.
  await uploadTrack(adaClient, room.id, ada.id, "Third tone", 60);
  const secondPath = await uploadTrack(adaClient, room.id, ada.id, "Second tone", 60);
  const path = `/r/${room.slug}/listen`;

  // Ada starts the session with the first track.
  const a = await seat(browser, ada, path);
  await a.page.getByLabel("Start with").selectOption({ label: "Opening tone" });
  await a.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(hostControls(a.page)).toBeVisible();
  await a.page.getByRole("button", { name: "Mute", exact: true }).click();
  // A new session checks before it starts, waiting up to 10 s; Ada gives it 30 s.
  const wait = hostControls(a.page).getByLabel("Wait for everyone");
  await expect(wait).toHaveValue("10");
  await wait.selectOption({ label: "Up to 30 s" });

  // Dee's connection is slow: their player gets each track's file only when the test says so.
  const first = gate();
  const second = gate();
  let deeAsked = 0;
  const slow = async (context: BrowserContext) => {
    await context.route(
      (url) => url.pathname.includes("/storage/v1/object/") && (url.pathname.includes(firstPath) || url.pathname.includes(secondPath)),
      async (route) => {
        deeAsked++;
        await (route.request().url().includes(firstPath) ? first.opened : second.opened);
        await route.continue().catch(() => undefined);
      },
    );
  };
  const [b, c, d] = await Promise.all([seat(browser, bo, path), seat(browser, cy, path), seat(browser, dee, path, slow)]);
  for (const seated of [b, c, d]) {
    await expect(nowPlaying(seated.page)).toHaveText("Opening tone");
    await joinSession(seated.page);
  }
  await expect.poll(() => deeAsked).toBeGreaterThan(0);
  await expect(hostControls(a.page).getByLabel("Wait for everyone")).toHaveValue("30");

  // Before play, Ada sees who is ready for it: Bo and Cy have buffered; Dee is still loading.
  await expect(hostControls(a.page).getByText(/^Still loading: /)).toHaveText("Still loading: Dee");
  await expect(hostControls(a.page).getByText(/^Ready: /)).toHaveText(/^Ready: (Bo and Cy|Cy and Bo)$/);

  // Play waits for Dee: nobody plays, "Start anyway" is the one thing to do, with the time it will wait at most.
  await hostButton(a.page, "Play").click();
  await expect(
    hostControls(a.page)
      .getByRole("status")
      .filter({ hasText: /^Waiting for / }),
  ).toHaveText("Waiting for Dee…");
  await expect(hostControls(a.page).getByText(/starting in \d+ s at the latest/)).toBeVisible();
  await expectOnePrimary(a.page, "Start anyway");
  await expect(hostButton(a.page, "Play")).toBeDisabled();
  await a.page.waitForTimeout(1_500);
  await expectPaused([a.page, b.page, c.page, d.page], true, 1_000);
  await checkPage(a.page, "listen-ready-check-waiting");
  await expectPaused([a.page, b.page, c.page], true, 1_000);

  // Dee's file arrives: once their player has it, play starts for everyone, with nobody left behind.
  first.open();
  await expectPaused([a.page, b.page, c.page, d.page], false, 10_000);
  await expect(hostButton(a.page, "Pause")).toBeVisible();
  await expect(hostControls(a.page).getByText(/^Started without/)).toHaveCount(0);

  // Before every track, waiting 5 s: Dee's next file is held back for good, so the next track starts
  // without them after the wait, and Ada's page says who was not ready.
  await hostControls(a.page).getByLabel("Wait for everyone").selectOption({ label: "Up to 5 s" });
  await hostControls(a.page).getByLabel("Before every track").check();
  await expect(hostControls(a.page).getByLabel("Before every track")).toBeChecked();
  await expect(hostControls(a.page).getByLabel("Wait for everyone")).toHaveValue("5");
  const movedAt = Date.now();
  await hostButton(a.page, "Next in queue").click();
  for (const seated of [a, b, c, d]) await expect(nowPlaying(seated.page)).toHaveText("Second tone");
  await expect(
    hostControls(a.page)
      .getByRole("status")
      .filter({ hasText: /^Waiting for / }),
  ).toHaveText("Waiting for Dee…");
  await expectPaused([b.page, c.page], true, 2_000);
  await expect(hostControls(a.page).getByText(/^Started without .+ — still loading$/)).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - movedAt).toBeGreaterThanOrEqual(4_500);
  await expect(hostControls(a.page).getByText(/^Started without .+ — still loading$/)).toHaveText("Started without Dee — still loading");
  await expectPaused([a.page, b.page, c.page], false);
  await checkPage(a.page, "listen-ready-check-started-without");
  second.open();

  // Everyone's player keeps the next track loaded while this one plays, and says so: with all three
  // ready for it, the next track follows at once — no check, no pause (one new version of the session).
  const { data: live } = await service
    .from("listening_sessions")
    .select("id, version, post_id")
    .eq("room_id", room.id)
    .is("ended_at", null)
    .single();
  const thirdId = (await service.from("posts").select("id").eq("room_id", room.id).eq("title", "Third tone").single()).data!.id as string;
  await expect
    .poll(
      async () =>
        (await service.from("session_readiness").select("user_id").eq("session_id", live!.id).eq("post_id", thirdId)).data?.length,
      {
        timeout: 15_000,
      },
    )
    .toBe(3);
  const before = live!.version as number;
  await hostButton(a.page, "Next in queue").click();
  for (const seated of [a, b, c, d]) await expect(nowPlaying(seated.page)).toHaveText("Third tone");
  await expectPaused([b.page, c.page, d.page], false, 2_000);
  const after = (await service.from("listening_sessions").select("version").eq("id", live!.id).single()).data!.version as number;
  expect(after).toBe(before + 1);
  await expect(hostControls(a.page).locator("[data-ready-check]")).toHaveCount(0);

  for (const seated of [a, b, c, d]) expect(seated.errors).toEqual([]);
  await Promise.all([a, b, c, d].map((seated) => seated.context.close()));
});

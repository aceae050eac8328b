import { expect, test } from "@playwright/test";
import { alertInMain, checkPage, expectSignedIn, expectSignedOut, signInWithPassword, watchConsole } from "./support/pages";
import { apiUrl, createConfirmedUser, profileOf } from "./support/users";

const png = (bytes: number) => {
  // A real 1×1 PNG, padded with a trailing chunk to the size wanted.
  const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  return bytes <= pixel.length ? pixel : Buffer.concat([pixel, Buffer.alloc(bytes - pixel.length)]);
};

test("edit the profile: invalid values show next to their field and stay typed; a taken username is named; valid values save", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("profile");
  const other = await createConfirmedUser("taken");
  const taken = (await profileOf(other.id)).username;
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.goto("/account");
  await checkPage(page, "account");

  await page.getByLabel("Username").fill("Bad Name!");
  await page.getByLabel("Display name").fill("");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.locator("#username-error")).toHaveText("Usernames use 3–24 lowercase letters, digits or _");
  await expect(page.locator("#displayName-error")).toHaveText("Enter the name people see");
  await expect(page.getByLabel("Username")).toHaveValue("Bad Name!");
  await expect(page.getByLabel("Display name")).toHaveValue("");
  await checkPage(page, "account-invalid");

  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Display name").fill("x".repeat(51));
  await page.getByLabel("Bio").fill("y".repeat(281));
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.locator("#username-error")).toHaveText("That username is reserved");
  await expect(page.locator("#displayName-error")).toHaveText("Names are up to 50 characters");
  await expect(page.locator("#bio-error")).toHaveText("Bios are up to 280 characters");
  await expect(page.getByLabel("Bio")).toHaveValue("y".repeat(281));
  await page.getByLabel("Bio").fill("");

  // A name that would read backwards (a right-to-left override) is refused in words, kept as typed.
  await page.getByLabel("Display name").fill("\u202Egnp.exe");
  await page.getByLabel("Bio").fill("ding\u0007");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.locator("#displayName-error")).toHaveText(
    "Use letters, numbers and symbols only — no control or text-direction characters",
  );
  await expect(page.locator("#bio-error")).toHaveText("Remove the control characters from this text");
  await expect(page.getByLabel("Display name")).toHaveValue("\u202Egnp.exe");
  await page.getByLabel("Bio").fill("");

  await page.getByLabel("Username").fill(taken);
  await page.getByLabel("Display name").fill("Test Person");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.locator("#username-error")).toHaveText("That username is taken");
  await expect(page.getByLabel("Username")).toHaveValue(taken);

  const mine = `e2e_${Date.now().toString(36)}`;
  await page.getByLabel("Username").fill(mine);
  await page.getByLabel("Bio").fill("Crate digger.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  expect(await profileOf(user.id)).toMatchObject({ username: mine, display_name: "Test Person", bio: "Crate digger." });

  await page.goto(`/u/${mine}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test Person");
  await expect(page.getByText("Crate digger.")).toBeVisible();
  await checkPage(page, "public-profile");
  expect(errors).toEqual([]);
});

test("upload an avatar with a progress bar; a 3 MB file is refused before upload; replacing removes the old file", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("avatar");
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.goto("/account");

  await page.getByLabel("Profile picture").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: png(3 * 1024 * 1024) });
  await expect(alertInMain(page)).toHaveText("Pictures up to 2 MB");
  expect((await profileOf(user.id)).avatar_path).toBeNull();

  await page
    .getByLabel("Profile picture")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await expect(alertInMain(page)).toHaveText("Pictures can be PNG, JPEG, WebP or GIF");

  // A slow uplink, so the progress bar is there long enough for a person (and this test) to see it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 100 * 1024 });
  await page.getByLabel("Profile picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png(200 * 1024) });
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByText("New picture saved.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const first = (await profileOf(user.id)).avatar_path;
  expect(first).toMatch(new RegExp(`^${user.id}/avatar-\\d+\\.png$`));
  await expect(page.locator(`img[src*="${first}"]`).first()).toBeVisible();

  await page.getByLabel("Profile picture").setInputFiles({ name: "me2.png", mimeType: "image/png", buffer: png(1024) });
  await expect(page.getByText("New picture saved.")).toBeVisible();
  const second = (await profileOf(user.id)).avatar_path;
  expect(second).not.toBe(first);
  const gone = await fetch(`${apiUrl}/storage/v1/object/public/avatars/${first}`);
  expect(gone.ok).toBe(false);
  expect((await gone.text()).toLowerCase()).toContain("not found");
  await expect(page.locator(`img[src*="${second}"]`).first()).toBeVisible();
  await checkPage(page, "account-avatar");
  expect(errors).toEqual([]);
});

test("the session survives a reload and a server render", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("reload");
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.reload();
  await expectSignedIn(page);
  const html = await (await page.request.get("/account")).text();
  expect(html).toContain(user.email);
  expect(errors).toEqual([]);
});

test("signing out in one tab signs out the other", async ({ context }) => {
  const user = await createConfirmedUser("tabs");
  const first = await context.newPage();
  const errors = await watchConsole(first);
  await signInWithPassword(first, user.email, user.password);
  await expectSignedIn(first);
  const second = await context.newPage();
  const secondErrors = await watchConsole(second);
  await second.goto("/account");
  await expectSignedIn(second);
  await first.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(first);
  await expectSignedOut(second);
  await expect(second).toHaveURL(/\/$/);
  expect([...errors, ...secondErrors]).toEqual([]);
});

test("what is typed while a save is in flight stays when its answer lands", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("inflight");
  const other = await createConfirmedUser("inflight-taken");
  const taken = (await profileOf(other.id)).username;
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.goto("/account");
  // Hold the save's request back, so the person is still typing when its answer arrives.
  await page.route("**/account", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByLabel("Username").fill(taken);
  await page.getByRole("button", { name: "Save profile" }).click();
  await page.getByLabel("Username").fill("fixed_while_saving");
  await page.getByLabel("Bio").fill("Typed during the save.");
  await expect(page.locator("#username-error")).toHaveText("That username is taken");
  await expect(page.getByLabel("Username")).toHaveValue("fixed_while_saving");
  await expect(page.getByLabel("Bio")).toHaveValue("Typed during the save.");
  expect(errors).toEqual([]);
});

// Before (or without) JavaScript, the password forms still work: they POST to Server Actions, which
// sign in and set the session cookies. No URL the browser visits ever carries a password.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { latestLink } from "./support/inbox";
import { alertInMain, expectSignedIn, expectSignedOut, passwordForm, watchConsole } from "./support/pages";
import { createConfirmedUser, uniqueEmail } from "./support/users";

test.use({ javaScriptEnabled: false });

/** Every URL the context requests or navigates to, and the bodies of its POSTs. */
function trackTraffic(context: BrowserContext) {
  const urls: string[] = [];
  const posts: string[] = [];
  context.on("request", (request) => {
    urls.push(request.url());
    if (request.method() === "POST") posts.push(request.postData() ?? "");
  });
  context.on("page", (page) => page.on("framenavigated", (frame) => urls.push(frame.url())));
  return {
    urls,
    expectNoUrlContains(secret: string) {
      const encodings = [secret, encodeURIComponent(secret), secret.replaceAll(" ", "+")];
      const leaks = urls.filter((url) => encodings.some((form) => url.includes(form) || decodeURIComponent(url).includes(form)));
      expect(leaks, `URLs carrying the password: ${leaks.join(", ")}`).toEqual([]);
    },
    expectPosted(secret: string) {
      expect(
        posts.some((body) => body.includes(secret)),
        "the password went in a POST body",
      ).toBe(true);
    },
  };
}

async function signInWithoutScript(page: Page, email: string, password: string, path = "/login") {
  await page.goto(path);
  const form = passwordForm(page);
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("sign in without JavaScript: POSTed, signed in, taken where the person was going; a wrong password says so and keeps the email", async ({
  page,
  context,
}) => {
  const errors = await watchConsole(page);
  const traffic = trackTraffic(context);
  const user = await createConfirmedUser("nojs-signin", "no-script-pass-1");

  await signInWithoutScript(page, user.email, "not-the-password-1", "/login?next=/account");
  await expect(alertInMain(page)).toContainText("That email and password don't match");
  await expect(passwordForm(page).getByLabel("Email", { exact: true })).toHaveValue(user.email);
  // The answer never carries the password back.
  await expect(passwordForm(page).getByLabel("Password", { exact: true })).toHaveValue("");
  expect(await page.content()).not.toContain("not-the-password-1");
  await expectSignedOut(page);

  await passwordForm(page).getByLabel("Password", { exact: true }).fill(user.password);
  await passwordForm(page).getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  await expect(page.getByRole("main")).toContainText(user.email);

  traffic.expectPosted(user.password);
  traffic.expectNoUrlContains(user.password);
  traffic.expectNoUrlContains("not-the-password-1");
  expect(errors).toEqual([]);
});

test("sign up without JavaScript: the confirmation email's link signs in; bad input is explained next to its field", async ({
  page,
  context,
}) => {
  const errors = await watchConsole(page);
  const traffic = trackTraffic(context);
  const email = uniqueEmail("nojs-signup");
  const password = "no-script-signup-2";

  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(page.locator("#password-error")).toHaveText("Passwords have at least 8 characters");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`We sent a confirmation link to ${email}`)).toBeVisible();

  const link = await latestLink(email, /Confirm your Cuepoint account/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/welcome\?next=%2F$/);
  await expectSignedIn(page);
  // The welcome step works as a plain form: a bad username is refused next to its field, typed text kept.
  await page.getByLabel("Username").fill("No Spaces");
  await page.getByLabel("Your name").fill("Nora Script");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.locator("#username-error")).toHaveText("Usernames use 3–24 lowercase letters, digits or _");
  await expect(page.getByLabel("Your name")).toHaveValue("Nora Script");
  await page.getByLabel("Username").fill(`nojs_${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByRole("heading", { name: "You're all set. Rooms to start with" })).toBeVisible();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page);

  traffic.expectPosted(password);
  traffic.expectNoUrlContains(password);
  traffic.expectNoUrlContains("short");
  expect(errors).toEqual([]);
});

test("set a new password without JavaScript, then sign in with it; a reset request works too", async ({ page, context, browser }) => {
  const errors = await watchConsole(page);
  const traffic = trackTraffic(context);
  const user = await createConfirmedUser("nojs-setpw", "no-script-old-3");
  const newPassword = "no-script-new-pass-3";

  await signInWithoutScript(page, user.email, user.password, "/login?next=/account/password");
  await expect(page).toHaveURL(/\/account\/password$/);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password", { exact: true }).fill("something-else-3");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.locator("#confirm-error")).toHaveText("The two passwords don't match");

  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your new password is saved.")).toBeVisible();

  // A fresh browser, still without JavaScript: the old password no longer works, the new one does.
  const fresh = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const freshTraffic = trackTraffic(fresh);
  const other = await fresh.newPage();
  const otherErrors = await watchConsole(other);
  await signInWithoutScript(other, user.email, user.password);
  await expect(alertInMain(other)).toContainText("That email and password don't match");
  await signInWithoutScript(other, user.email, newPassword);
  await expect(other).toHaveURL(/\/$/);
  await expectSignedIn(other);

  const resetPage = await fresh.newPage();
  await resetPage.goto("/login/reset");
  await resetPage.getByLabel("Email", { exact: true }).fill(user.email);
  await resetPage.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(resetPage.getByText(`If ${user.email} has an account, a link to set a new password is on its way.`)).toBeVisible();
  await fresh.close();

  for (const secret of [user.password, newPassword, "something-else-3"]) {
    traffic.expectNoUrlContains(secret);
    freshTraffic.expectNoUrlContains(secret);
  }
  traffic.expectPosted(newPassword);
  expect([...errors, ...otherErrors]).toEqual([]);
});

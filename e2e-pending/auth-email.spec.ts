import { expect, test } from "@playwright/test";
import { latestLink } from "../e2e/support/inbox";
import { expectSignedIn, expectSignedOut, screenshot, signInWithPassword, watchConsole } from "../e2e/support/pages";
import { createConfirmedUser, uniqueEmail } from "../e2e/support/users";

test("sign up → confirmation email → confirmed and signed in; sign out; sign back in with the password", async ({ page }) => {
  const errors = watchConsole(page);
  const email = uniqueEmail("signup");
  const password = "listening-club-42";
  await page.goto("/signup");
  await screenshot(page, "signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`We sent a confirmation link to ${email}`)).toBeVisible();
  await screenshot(page, "signup-sent");

  const link = await latestLink(email, /Confirm your Cuepoint account/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page);
  await screenshot(page, "home-signed-in");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);

  await signInWithPassword(page, email, password);
  await expectSignedIn(page);
  expect(errors).toEqual([]);
});

test("a wrong password and an unconfirmed email each say what happened, and keep what was typed", async ({ page }) => {
  const user = await createConfirmedUser("wrongpw");
  await signInWithPassword(page, user.email, "not-the-password");
  await expect(page.getByRole("alert")).toContainText("That email and password don't match");
  await expect(page.getByLabel("Email", { exact: true }).first()).toHaveValue(user.email);
  await screenshot(page, "login-wrong-password");

  const email = uniqueEmail("unconfirmed");
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("listening-club-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("We sent a confirmation link")).toBeVisible();
  await signInWithPassword(page, email, "listening-club-42");
  await expect(page.getByRole("alert")).toContainText("Confirm your email first");
  await expect(page.getByRole("button", { name: "Send the confirmation email again" })).toBeVisible();
});

test("invalid values get messages next to their fields", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(page.locator("#password-error")).toHaveText("Passwords have at least 8 characters");
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await screenshot(page, "signup-invalid");
});

test("magic link signs in and goes where the person was going", async ({ page }) => {
  const user = await createConfirmedUser("magic");
  await page.goto("/login?next=/account");
  await screenshot(page, "login");
  await page.getByLabel("Email").nth(1).fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText(`Check ${user.email}`)).toBeVisible();
  const link = await latestLink(user.email, /sign-in link/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
});

test("password recovery → /account/password → the new password works and the old does not", async ({ page, browser }) => {
  const user = await createConfirmedUser("recover");
  await page.goto("/login/reset");
  await screenshot(page, "reset");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByText("a link to set a new password is on its way")).toBeVisible();
  const link = await latestLink(user.email, /Reset your Cuepoint password/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account\/password$/);
  await screenshot(page, "account-password");
  await page.getByLabel("New password").fill("brand-new-password-7");
  await page.getByLabel("Repeat the new password").fill("brand-new-password-7");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your new password is saved")).toBeVisible();

  const fresh = await browser.newPage();
  await signInWithPassword(fresh, user.email, user.password);
  await expect(fresh.getByRole("alert")).toContainText("don't match");
  await signInWithPassword(fresh, user.email, "brand-new-password-7");
  await expectSignedIn(fresh);
});

test("a tampered or replayed email link lands on /auth/error with a readable reason", async ({ page }) => {
  const user = await createConfirmedUser("replay");
  await page.goto("/login");
  await page.getByLabel("Email").nth(1).fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  const link = await latestLink(user.email, /sign-in link/);

  const tampered = link.replace(/token_hash=([^&]+)/, (_m, hash: string) => `token_hash=${hash.slice(0, -4)}beef`);
  await page.goto(tampered);
  await expect(page).toHaveURL(/\/auth\/error/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/isn't valid|has expired|already been used/);
  await screenshot(page, "auth-error");

  await page.goto(link);
  await expectSignedIn(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/error/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/isn't valid|has expired|already been used/);
});

test("an open-redirect attempt through next= stays on the site", async ({ page }) => {
  const user = await createConfirmedUser("redirect");
  await page.goto("/login?next=//evil.example/steal");
  await page.getByLabel("Email", { exact: true }).first().fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expectSignedIn(page);
  expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
  const response = await page.goto("/auth/confirm?token_hash=x&type=magiclink&next=https://evil.example");
  expect(new URL(response!.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
});

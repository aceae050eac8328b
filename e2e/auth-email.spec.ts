import { expect, test } from "@playwright/test";
import { latestLink } from "./support/inbox";
import {
  alertInMain,
  checkPage,
  expectSignedIn,
  expectSignedOut,
  magicLinkForm,
  passwordForm,
  signInWithPassword,
  watchConsole,
} from "./support/pages";
import { createConfirmedUser, profileOf, uniqueEmail } from "./support/users";

test("sign up → confirmation email → confirmed and signed in; sign out; sign back in with the password", async ({ page }) => {
  const errors = await watchConsole(page);
  const email = uniqueEmail("signup");
  const password = "listening-club-42";
  await page.goto("/");
  await checkPage(page, "home");
  await page.getByRole("main").getByRole("link", { name: "Create your account" }).click();
  await expect(page).toHaveURL(/\/signup/);
  await checkPage(page, "signup");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`We sent a confirmation link to ${email}`)).toBeVisible();
  await checkPage(page, "signup-sent");

  const link = await latestLink(email, /Confirm your Cuepoint account/);
  await page.goto(link);
  // The first visit: the names sign-up made from the email, prefilled, checked as they are typed.
  await expect(page).toHaveURL(/\/welcome\?next=%2F$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Cuepoint");
  await expectSignedIn(page);
  const username = page.getByLabel("Username");
  await expect(username).toHaveValue(/^[a-z0-9_]{3,24}$/);
  await expect(page.getByLabel("Your name")).not.toHaveValue("");
  await expect(page.getByText(new RegExp(`Your page will be \\S+/u/${await username.inputValue()}`))).toBeVisible();
  const someoneElse = await profileOf((await createConfirmedUser("taken-name")).id);
  await username.fill(someoneElse.username);
  await expect(page.locator("#username-error")).toHaveText("That username is taken");
  await checkPage(page, "welcome");
  const chosen = `lis_${Date.now().toString(36)}`.slice(0, 24);
  await username.fill(chosen);
  await expect(page.getByText(`${chosen} is free.`)).toBeVisible();
  await page.getByLabel("Your name").fill("Lis Tener");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByRole("heading", { name: "You're all set. Rooms to start with" })).toBeVisible();
  await checkPage(page, "welcome-rooms");
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner")).toContainText("Lis Tener");
  await checkPage(page, "home-signed-in");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);

  // The confirmation link worked once; opened again it explains itself.
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/error/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/has expired|already (been )?used/);
  await expectSignedOut(page);

  await signInWithPassword(page, email, password);
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});

test("a wrong password and an unconfirmed email each say what happened, and keep what was typed", async ({ page }) => {
  // Both are 400 answers from Auth's password grant, which the form turns into words.
  const errors = await watchConsole(page, { expectedFailures: [/\/auth\/v1\/token\?grant_type=password$/] });
  const user = await createConfirmedUser("wrongpw");
  await signInWithPassword(page, user.email, "not-the-password");
  await expect(alertInMain(page)).toContainText("That email and password don't match");
  await expect(passwordForm(page).getByLabel("Email", { exact: true })).toHaveValue(user.email);
  await expect(passwordForm(page).getByLabel("Password", { exact: true })).toHaveValue("not-the-password");
  await checkPage(page, "login-wrong-password");

  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill("listening-club-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(alertInMain(page)).toContainText("An account with this email already exists — sign in instead.");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(user.email);

  const email = uniqueEmail("unconfirmed");
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("listening-club-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("We sent a confirmation link")).toBeVisible();
  await signInWithPassword(page, email, "listening-club-42");
  await expect(alertInMain(page)).toContainText("Confirm your email first");
  const resend = page.getByRole("button", { name: "Send the confirmation email again" });
  await expect(resend).toBeVisible();
  const askedAt = new Date(Date.now() - 1000);
  await resend.click();
  await expect(page.getByText(`Sent to ${email}.`)).toBeVisible();
  await latestLink(email, /Confirm your Cuepoint account/, { after: askedAt });
  await checkPage(page, "login-unconfirmed");
  expect(errors).toEqual([]);
});

test("invalid values get messages next to their fields, and what was typed stays", async ({ page }) => {
  const errors = await watchConsole(page);
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(page.locator("#password-error")).toHaveText("Passwords have at least 8 characters");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("short");
  await checkPage(page, "signup-invalid");

  await page.goto("/login");
  const password = passwordForm(page);
  await password.getByLabel("Email", { exact: true }).fill("someone@");
  await password.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(password.locator("#email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(password.locator("#password-error")).toHaveText("Enter your password");
  await expect(password.getByLabel("Email", { exact: true })).toHaveValue("someone@");

  const magic = magicLinkForm(page);
  await magic.getByLabel("Email", { exact: true }).fill("no at sign");
  await magic.getByRole("button", { name: "Send me a link" }).click();
  await expect(magic.locator("#magic-email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(magic.getByLabel("Email", { exact: true })).toHaveValue("no at sign");
  await checkPage(page, "login-invalid");

  await page.goto("/login/reset");
  await page.getByLabel("Email", { exact: true }).fill("x@y");
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter an email address like name@example.com");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("x@y");
  expect(errors).toEqual([]);
});

test("magic link signs in and goes where the person was going", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("magic");
  await page.goto("/login?next=/account");
  await checkPage(page, "login");
  await magicLinkForm(page).getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText(`Check ${user.email}`)).toBeVisible();
  const link = await latestLink(user.email, /sign-in link/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  expect(errors).toEqual([]);
});

test("password recovery → /account/password → the new password works and the old does not", async ({ page, browser }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("recover");
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/login\/reset$/);
  await checkPage(page, "reset");
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByText("a link to set a new password is on its way")).toBeVisible();
  const link = await latestLink(user.email, /Reset your Cuepoint password/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account\/password$/);
  await checkPage(page, "account-password");

  const newPassword = page.getByLabel("New password", { exact: true });
  const repeat = page.getByLabel("Repeat the new password", { exact: true });
  await newPassword.fill("brand-new-password-7");
  await repeat.fill("brand-new-password-8");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.locator("#confirm-error")).toHaveText("The two passwords don't match");
  await expect(repeat).toHaveValue("brand-new-password-8");
  await newPassword.fill("short");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.locator("#password-error")).toHaveText("Passwords have at least 8 characters");
  await checkPage(page, "account-password-invalid");

  await newPassword.fill("brand-new-password-7");
  await repeat.fill("brand-new-password-7");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your new password is saved")).toBeVisible();

  const fresh = await browser.newPage();
  await signInWithPassword(fresh, user.email, user.password);
  await expect(alertInMain(fresh)).toContainText("don't match");
  await signInWithPassword(fresh, user.email, "brand-new-password-7");
  await expectSignedIn(fresh);
  await fresh.close();
  expect(errors).toEqual([]);
});

test("a tampered or replayed email link lands on /auth/error with a readable reason", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("replay");
  await page.goto("/login");
  await magicLinkForm(page).getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText(`Check ${user.email}`)).toBeVisible();
  const link = await latestLink(user.email, /sign-in link/);

  const tampered = link.replace(/token_hash=([^&]+)/, (_m, hash: string) => `token_hash=${hash.slice(0, -4)}beef`);
  expect(tampered).not.toBe(link);
  await page.goto(tampered);
  await expect(page).toHaveURL(/\/auth\/error/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/isn't valid|has expired|already (been )?used/);
  await checkPage(page, "auth-error");
  await expectSignedOut(page);

  await page.goto(link);
  await expectSignedIn(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/error/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/isn't valid|has expired|already (been )?used/);
  await expect(page.getByRole("main")).toContainText(/send yourself a new one/i);
  await expectSignedOut(page);
  expect(errors).toEqual([]);
});

test("an open-redirect attempt through next= stays on the site", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("redirect");
  const site = new URL(test.info().project.use.baseURL!).host;

  await signInWithPassword(page, user.email, user.password, "/login?next=//evil.example/steal");
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);
  expect(new URL(page.url()).host).toBe(site);
  // Signed in, /login sends the person on to next= at once: paths that become //evil.example only
  // once normalised stay here too.
  for (const next of ["/.//evil.example/phish", "/%2e//evil.example/phish"]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await expect(page).toHaveURL(/\/$/);
    expect(new URL(page.url()).host).toBe(site);
  }
  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);

  // A genuine email link whose next= was changed to another site still signs in here, and stays here.
  await page.goto("/login?next=/account");
  await magicLinkForm(page).getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText(`Check ${user.email}`)).toBeVisible();
  const link = await latestLink(user.email, /sign-in link/);
  const hijacked = new URL(link);
  hijacked.searchParams.set("next", "https://evil.example/steal");
  await page.goto(hijacked.toString());
  await expectSignedIn(page);
  expect(new URL(page.url()).host).toBe(site);
  await expect(page).toHaveURL(/\/$/);

  for (const next of [
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "/.//evil.example",
    "/..//evil.example",
  ]) {
    for (const route of ["/auth/confirm?token_hash=x&type=magiclink", "/auth/callback?code=x"]) {
      const response = await page.goto(`${route}&next=${encodeURIComponent(next)}`);
      expect(new URL(response!.url()).host).toBe(site);
    }
  }
  expect(errors).toEqual([]);
});

test("keyboard only: skip to the content, then sign in with Tab, typing and Enter", async ({ page }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("keyboard");
  await page.goto("/login");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("main").getByRole("link", { name: "Create an account" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(passwordForm(page).getByLabel("Email", { exact: true })).toBeFocused();
  await page.keyboard.type(user.email);
  await page.keyboard.press("Tab");
  await expect(passwordForm(page).getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});

test("offline: the sign-in form says to check the connection, and keeps what was typed", async ({ page }) => {
  await page.goto("/login");
  await page.context().setOffline(true);
  const form = passwordForm(page);
  await form.getByLabel("Email", { exact: true }).fill("ada@example.com");
  await form.getByLabel("Password", { exact: true }).fill("listening-club-42");
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(alertInMain(page)).toHaveText("We couldn't reach Cuepoint — check your connection and try again.");
  await expect(form.getByLabel("Email", { exact: true })).toHaveValue("ada@example.com");
  await expect(form.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  await page.context().setOffline(false);
});

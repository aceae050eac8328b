// Passkeys, with Chromium's virtual authenticator standing in for Touch ID or a phone: add one on
// /account (named by the person), rename it, sign out, sign back in with "Sign in with a passkey";
// a wallet's account (no email to sign in with) can't remove its last one; a cancelled prompt and a second passkey on the
// same device are said in words.
import { expect, type Page, test } from "@playwright/test";
import { authenticator } from "./support/totp";
import { alertInMain, checkPage, expectSignedIn, passwordForm, signInWithPassword, watchConsole } from "./support/pages";
import { anon, createConfirmedUser } from "./support/users";
import { injectTestWallet } from "./support/wallet";

/** A platform authenticator in this page's browser: it keeps passkeys and checks the person (or refuses to). */
async function addAuthenticator(page: Page, { verifies = true } = {}) {
  // A page may play a browser without passkey autofill (conditional mediation), so the button is what signs in.
  await page.addInitScript(() => {
    if (localStorage.getItem("e2e-no-passkey-autofill") !== "1") return;
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: verifies },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

const passkeys = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "Passkeys", exact: true }) });
const addForm = (page: Page) => passkeys(page).getByRole("form", { name: "Add a passkey" });

async function addPasskey(page: Page, name: string) {
  const form = addForm(page);
  // The name starts as the device's ("Linux (Chrome)"), which the person replaces.
  await expect(form.getByLabel("Name for this passkey")).toHaveValue(/\S/);
  await form.getByLabel("Name for this passkey").fill(name);
  await form.getByRole("button", { name: "Add a passkey" }).click();
}

test("add a passkey on /account, rename it, sign out, sign in with it", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("passkey");
  const device = await addAuthenticator(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  const section = passkeys(page);
  await expect(section.getByText("No passkeys yet — add one to sign in on this device without a password.")).toBeVisible();
  await expect(addForm(page).getByLabel("Name for this passkey")).toHaveValue("Linux (Chrome)");

  await addPasskey(page, "  MacBook   Touch ID ");
  await expect(section.getByRole("status")).toHaveText("Added “MacBook Touch ID”. You can sign in with it now.");
  const list = section.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText("MacBook Touch ID");
  await expect(list.getByRole("listitem")).toContainText("not used to sign in yet");
  expect(await device.credentials()).toHaveLength(1);
  await checkPage(page, "account-passkeys");

  await section.getByRole("button", { name: "Rename MacBook Touch ID" }).click();
  const rename = section.getByRole("form", { name: "Rename MacBook Touch ID" });
  await rename.getByLabel("New name").fill(" ");
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(section.getByRole("alert")).toHaveText("Give this passkey a name, like “MacBook Touch ID”.");
  await rename.getByLabel("New name").fill("Work laptop");
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(section.getByRole("status")).toHaveText("Renamed to “Work laptop”.");
  await expect(list.getByRole("listitem")).toContainText("Work laptop");
  // With a password there is another way in, so this passkey could go (not removed here: it signs in next).
  await expect(section.getByRole("button", { name: "Remove Work laptop" })).toBeEnabled();

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  // First as in a browser that can't offer passkeys in autofill: the button.
  await page.evaluate(() => localStorage.setItem("e2e-no-passkey-autofill", "1"));
  await page.goto("/login?next=/account");
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await expect(passwordForm(page).getByLabel("Email", { exact: true })).toHaveAttribute("autocomplete", "username webauthn");
  await checkPage(page, "login-passkey");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  await expect(passkeys(page).getByRole("listitem")).toContainText(/last used \d{1,2} \w{3} \d{4}/);

  // Then with autofill: the email field invites the browser to offer the passkey, and the request
  // waiting from page load is answered as when the person picks it there (the virtual authenticator
  // picks at once), so /login signs in and goes on to where the person was going.
  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.evaluate(() => localStorage.removeItem("e2e-no-passkey-autofill"));
  await page.goto("/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  expect(errors).toEqual([]);
});

test("a wallet's account keeps its last passkey; a second one on the same device is said in words", async ({ page }) => {
  test.setTimeout(120_000);
  // thirdweb reports each wallet connection to its analytics endpoint; a stand-in answers (no internet here).
  await page.route("https://c.thirdweb.com/**", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "{}" }));
  const errors = await watchConsole(page);
  await injectTestWallet(page);
  await addAuthenticator(page);
  await page.goto("/login");
  await page.getByRole("button", { name: "Connect wallet and sign in" }).click();
  await expect(page).toHaveURL(/\/welcome/);
  await page.goto("/account");
  await expect(page.getByText("Signed in with an Ethereum wallet")).toBeVisible();

  await addPasskey(page, "Phone");
  const section = passkeys(page);
  await expect(section.getByRole("status")).toHaveText("Added “Phone”. You can sign in with it now.");

  await section.getByRole("button", { name: "Remove Phone" }).click();
  await expect(section.getByRole("alert")).toHaveText(
    "This passkey is the last way into your account — it has no email address to sign in with and no other passkey. Add another passkey first, then remove this one.",
  );
  await page.reload();
  await expect(passkeys(page).getByRole("listitem")).toContainText("Phone");

  await addPasskey(page, "Phone again");
  await expect(alertInMain(page)).toHaveText("This device already has a passkey for your account — you can use that one.");
  await expect(passkeys(page).getByRole("listitem")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("a cancelled prompt adds nothing and signs nobody in, in words", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("passkey-cancel");
  // An authenticator that never confirms the person: the browser answers as when they dismiss its prompt.
  const device = await addAuthenticator(page, { verifies: false });
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  await addPasskey(page, "Desk key");
  await expect(alertInMain(page)).toHaveText("You cancelled — nothing was added.");
  await expect(passkeys(page).getByText("No passkeys yet — add one to sign in on this device without a password.")).toBeVisible();
  expect(await device.credentials()).toEqual([]);

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(alertInMain(page)).toHaveText(
    "You cancelled, or there's no passkey for Cuepoint on this device — try again, or sign in another way and add one on your account page.",
  );
  await expect(page).toHaveURL(/\/login$/);
  expect(errors).toEqual([]);
});

test("a passkey is one factor: with two-factor on, signing in with it still asks for the authenticator code", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("passkey-mfa");
  // Two-factor on, through Auth as the person would set it up.
  const client = anon();
  await client.auth.signInWithPassword({ email: user.email, password: user.password });
  const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
  if (enrolled.error) throw enrolled.error;
  const app = authenticator(enrolled.data.totp.secret);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: await app.nextCode() });
  expect(verified.error).toBeNull();

  await addAuthenticator(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);
  await page.getByLabel("6-digit code").fill(await app.nextCode());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  await addPasskey(page, "Laptop");
  await expect(passkeys(page).getByRole("status")).toHaveText("Added “Laptop”. You can sign in with it now.");

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.evaluate(() => localStorage.setItem("e2e-no-passkey-autofill", "1"));
  await page.goto("/login?next=/account");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  // Supabase Auth signs a passkey in at aal1: the code is still owed, as after a password.
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);
  await page.getByLabel("6-digit code").fill(await app.nextCode());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  expect(errors).toEqual([]);
});

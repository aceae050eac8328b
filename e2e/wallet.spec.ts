import { expect, test } from "@playwright/test";
import { alertInMain, checkPage, expectSignedIn, expectSignedOut, watchConsole } from "./support/pages";
import { injectTestWallet } from "./support/wallet";
import { apiUrl } from "./support/users";
import { createClient } from "@supabase/supabase-js";
import { serviceRoleKey } from "@cuepoint/stack/keys";

const admin = createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

// thirdweb reports each wallet connection to its analytics endpoint; these machines have no internet,
// so a stand-in answers it as the real one would (the app does not depend on the answer).
test.beforeEach(async ({ page }) => {
  await page.route("https://c.thirdweb.com/**", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "{}" }));
});

async function userOfWallet(address: string) {
  const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
  return data.users.find((user) =>
    user.identities?.some(
      (identity) => identity.provider === "web3" && JSON.stringify(identity.identity_data).toLowerCase().includes(address.toLowerCase()),
    ),
  );
}

test("Sign in with Ethereum: the wallet signs an EIP-4361 message and the person is signed in, welcomed on the first time; the same wallet signs in to the same account", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const account = await injectTestWallet(page);
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in with Ethereum" })).toBeVisible();
  await page.getByRole("button", { name: "Connect wallet and sign in" }).click();
  await expectSignedIn(page);
  // The wallet's first signature made the account: the welcome step comes first, then where they were going.
  await expect(page).toHaveURL(/\/welcome\?next=%2F$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Cuepoint");
  await page.getByLabel("Your name").fill("Wallet Person");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner")).toContainText("Wallet Person");
  const first = await userOfWallet(account.address);
  expect(first, "a user with a web3 identity for the wallet").toBeTruthy();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expectSignedOut(page);
  // A person's next sign-in comes seconds after the account was made at the very least (the welcome
  // step counts only a sign-in in the request that made the account).
  const madeAt = Date.parse(first!.created_at);
  await expect.poll(() => Date.now() - madeAt, { timeout: 5_000 }).toBeGreaterThan(2_000);
  await page.goto("/login?next=/account");
  await page.getByRole("button", { name: "Connect wallet and sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  expect((await userOfWallet(account.address))?.id).toBe(first!.id);
  await expect(page.getByRole("main")).toContainText(
    `Signed in with an Ethereum wallet, ${account.address.slice(0, 6)}…${account.address.slice(-4)}`,
  );
  await checkPage(page, "account-wallet-user");
  expect(errors).toEqual([]);
});

test("a wallet that refuses to sign gets a message, and the person stays signed out", async ({ page }) => {
  const errors = await watchConsole(page);
  await injectTestWallet(page, undefined, { refuseSigning: true });
  await page.goto("/login");
  await page.getByRole("button", { name: "Connect wallet and sign in" }).click();
  await expect(alertInMain(page)).toContainText("You cancelled in your wallet");
  await expectSignedOut(page);
  await checkPage(page, "login-wallet-cancelled");
  expect(errors).toEqual([]);
});

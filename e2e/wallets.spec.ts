import { expect, type Page, test } from "@playwright/test";
import { createClient } from "@supabase/supabase-js";
import { avatarUrl, seededWallets } from "../chain/deployment";
import { serviceRoleKey } from "@cuepoint/stack/keys";
import { alertInMain, checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { apiUrl, createConfirmedUser, profileOf } from "./support/users";
import { injectTestWallet } from "./support/wallet";

const admin = createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
const ada = seededWallets.ada;
const apiPort = Number(new URL(apiUrl).port);
// The function answers a wallet linked elsewhere with 409; Chromium logs that response as an error.
const linkRefusal = [/\/functions\/v1\/link-wallet/];

async function openAccountWithWallet(page: Page, label: string) {
  await page.route("https://c.thirdweb.com/**", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "{}" }));
  await injectTestWallet(page, ada.privateKey);
  const user = await createConfirmedUser(label);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  return user;
}

const walletsSection = (page: Page) => page.getByRole("main").locator("section", { has: page.getByRole("heading", { name: "Wallets" }) });

test.beforeEach(async () => {
  await admin.from("wallets").delete().eq("address", ada.address.toLowerCase());
});

test("link a wallet by signing: its ENS name and avatar show on /account and the public profile; a second account cannot link it; unlinking removes it", async ({
  page,
  browser,
}) => {
  const errors = await watchConsole(page);
  const owner = await openAccountWithWallet(page, "wallet-owner");
  const section = walletsSection(page);
  await expect(section.getByText("No wallets linked yet.")).toBeVisible();

  await section.getByRole("button", { name: "Link a wallet" }).click();
  await expect(section.getByRole("status")).toContainText("Linked ada.eth.");
  const item = section.getByRole("listitem").filter({ hasText: "ada.eth" });
  await expect(item).toBeVisible();
  await expect(item.locator("img")).toHaveAttribute("src", avatarUrl("ada.eth", apiPort));
  await expect(item.locator(`[title="${ada.address}"]`)).toBeVisible();
  await checkPage(page, "account-wallets");

  const { username } = await profileOf(owner.id);
  await page.goto(`/u/${username}`);
  const profileWallets = page.getByRole("main").locator("section", { has: page.getByRole("heading", { name: "Wallets" }) });
  await expect(profileWallets.getByText("ada.eth")).toBeVisible();
  await expect(profileWallets.locator("img")).toHaveAttribute("src", avatarUrl("ada.eth", apiPort));
  // One name everywhere: the header shows the display name with the ENS name as its second line.
  const accountLink = page.getByRole("banner").getByRole("link", { name: /^Your account/ });
  await expect(accountLink).toContainText("ada.eth");
  await checkPage(page, "profile-wallets");

  // a second account, in its own browser, with the same wallet
  const context = await browser.newContext();
  const second = await context.newPage();
  const secondErrors = await watchConsole(second, { expectedFailures: linkRefusal });
  await openAccountWithWallet(second, "wallet-second");
  await walletsSection(second).getByRole("button", { name: "Link a wallet" }).click();
  await expect(alertInMain(second)).toHaveText("That wallet is already linked to another account");
  await expect(walletsSection(second).getByText("No wallets linked yet.")).toBeVisible();
  await checkPage(second, "account-wallet-taken");
  expect(secondErrors).toEqual([]);
  await context.close();

  await page.goto("/account");
  await section.getByRole("button", { name: "Unlink ada.eth" }).click();
  const confirm = section.getByRole("group", { name: "Unlink ada.eth?" });
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await expect(section.getByText("ada.eth")).toBeVisible();
  await section.getByRole("button", { name: "Unlink ada.eth" }).click();
  await confirm.getByRole("button", { name: "Yes, unlink" }).click();
  await expect(section.getByText("No wallets linked yet.")).toBeVisible();
  await page.goto(`/u/${username}`);
  await expect(page.getByRole("heading", { name: "Wallets" })).toHaveCount(0);
  await expect(accountLink).not.toContainText("ada.eth");
  expect(errors).toEqual([]);
});

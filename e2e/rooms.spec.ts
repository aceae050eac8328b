import { type Browser, expect, type Page, test } from "@playwright/test";
import { createClient } from "@supabase/supabase-js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { contracts, deployer } from "../chain/deployment";
import { serviceRoleKey } from "@cuepoint/stack/keys";
import { fundGas, mintErc721, transferErc721 } from "../tests/helpers/tokens";
import { alertInMain, checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { apiUrl, createConfirmedUser } from "./support/users";
import { injectTestWallet } from "./support/wallet";

const admin = createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
// The join-room function answers a refusal with 403; Chromium logs that response as an error.
const joinRefusal = [/\/functions\/v1\/join-room/];

interface VisitorOptions {
  /** A wallet for the page to link (injected, signing in Node). */
  privateKey?: `0x${string}`;
  expectedFailures?: RegExp[];
}

/** A new account signed in, in its own browser context, on /account. */
async function signedInPage(browser: Browser, label: string, { privateKey, expectedFailures = [] }: VisitorOptions = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await watchConsole(page, { expectedFailures });
  if (privateKey) {
    await page.route("https://c.thirdweb.com/**", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "{}" }));
    await injectTestWallet(page, privateKey);
  }
  const user = await createConfirmedUser(label);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  return { page, errors, user, close: () => context.close() };
}

const membershipSection = (page: Page) =>
  page.getByRole("main").locator("section", { has: page.getByRole("heading", { name: /Who may join|Membership/ }) });

test("create an open room: address suggested from the name, a taken or malformed address named at the field with nothing lost; it lists in the directory; a second account joins and leaves", async ({
  page,
  browser,
}) => {
  // Two accounts and four full page checks (the room page now carries the feed and its composer).
  test.slow();
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("room-owner");
  const id = unique();
  const name = `Dub Plates ${id}`;
  const slug = `dub-plates-${id}`;

  // someone else already has this address
  const other = await createConfirmedUser("room-other");
  const { error } = await admin.from("rooms").insert({ slug: `taken-${id}`, name: "Taken", owner_id: other.id });
  expect(error).toBeNull();

  await page.goto("/rooms/new");
  await expect(page).toHaveURL(/\/login\?next=%2Frooms%2Fnew|\/login\?next=\/rooms\/new/);
  await signInWithPassword(page, owner.email, owner.password, "/login?next=/rooms/new");
  await expect(page).toHaveURL(/\/rooms\/new$/);
  await expect(page.getByRole("heading", { level: 1, name: "Create a room" })).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue(slug);
  await page.getByLabel("Description").fill("Versions, dubs and the one-off cuts.");
  await page.getByLabel("Address", { exact: true }).fill("-Not OK-");
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page.locator("#slug-error")).toHaveText(
    "Room addresses use 3–48 lowercase letters, digits or -, not starting or ending with -",
  );
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await checkPage(page, "room-new-invalid");

  await page.getByLabel("Address", { exact: true }).fill(`taken-${id}`);
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page.locator("#slug-error")).toHaveText("That address is taken");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Description")).toHaveValue("Versions, dubs and the one-off cuts.");

  // emptied, the address follows the name again
  await page.getByLabel("Address", { exact: true }).fill("");
  await page.getByLabel("Name", { exact: true }).fill(`${name} `);
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue(slug);
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page).toHaveURL(new RegExp(`/r/${slug}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("1 member", { exact: true })).toBeVisible();
  await expect(membershipSection(page).getByText("You own this room.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("href", `/r/${slug}/settings`);
  await checkPage(page, "room-open-owner");

  await page.goto(`/?q=${encodeURIComponent(`plates ${id}`)}`);
  const card = page.getByRole("article").filter({ has: page.getByRole("link", { name }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("1 member")).toBeVisible();
  await expect(card.getByText("Open to all")).toBeVisible();
  await checkPage(page, "rooms-search");

  const guest = await signedInPage(browser, "room-guest");
  await guest.page.goto(`/r/${slug}`);
  await expect(guest.page.getByText("Posts in this room are for members.")).toHaveCount(0);
  await membershipSection(guest.page).getByRole("button", { name: "Join this room" }).click();
  await expect(membershipSection(guest.page).getByText("You're a member of this room.")).toBeVisible();
  await expect(guest.page.getByText("2 members", { exact: true })).toBeVisible();
  await expect(guest.page.getByRole("link", { name: "Settings" })).toHaveCount(0);
  await checkPage(guest.page, "room-open-member");
  await membershipSection(guest.page).getByRole("button", { name: "Leave room" }).click();
  await expect(membershipSection(guest.page).getByRole("button", { name: "Join this room" })).toBeVisible();
  await expect(guest.page.getByText("1 member", { exact: true })).toBeVisible();
  const { data: rows } = await admin
    .from("memberships")
    .select("user_id")
    .eq("room_id", (await admin.from("rooms").select("id").eq("slug", slug).single()).data!.id);
  expect(rows?.map((row) => row.user_id)).toEqual([owner.id]);
  expect(guest.errors).toEqual([]);
  await guest.close();
  expect(errors).toEqual([]);
});

test("a gated room on the local ERC-721: the token is checked before creating; a holder joins, a non-holder is told why; when the pass is sold and the check is old, the former member loses access and sees why", async ({
  page,
  browser,
}) => {
  const errors = await watchConsole(page);
  const holderKey = generatePrivateKey();
  const holderAddress = privateKeyToAccount(holderKey).address;
  await fundGas(holderAddress);
  const tokenId = await mintErc721(holderAddress);

  const owner = await createConfirmedUser("gate-owner");
  await signInWithPassword(page, owner.email, owner.password, "/login?next=/rooms/new");
  await expect(page).toHaveURL(/\/rooms\/new$/);
  const id = unique();
  const name = `Backstage ${id}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Holders of a token").check();
  await page.getByLabel("Chain").selectOption({ label: "Local chain" });
  await page.getByLabel("Token standard").selectOption("erc721");
  await page.getByLabel("Token id").waitFor({ state: "hidden" });

  // not a contract: said next to the address, nothing lost
  await page.getByLabel("Contract address").fill("0x000000000000000000000000000000000000dEaD");
  await page.getByRole("button", { name: "Check token" }).click();
  await expect(page.locator("#contractAddress-error")).toHaveText("There is no contract at 0x0000…dEaD on Local chain");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);

  await page.getByLabel("Contract address").fill(contracts.erc721);
  await page.getByRole("button", { name: "Check token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Token:" })).toHaveText(
    "Token: Cuepoint Backstage Pass (CUEPASS) on Local chain",
  );
  await checkPage(page, "room-new-gate-checked");
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const slug = new URL(page.url()).pathname.split("/").pop()!;
  await expect(membershipSection(page).getByText("Holders of at least 1 CUEPASS on Local chain")).toBeVisible();
  await expect(page.getByText(/Token-gated · Local chain/)).toBeVisible();

  // the holder links the wallet on /account, then joins
  const holder = await signedInPage(browser, "gate-holder", { privateKey: holderKey });
  await holder.page.getByRole("button", { name: "Link a wallet" }).click();
  await expect(
    holder.page
      .getByRole("main")
      .locator("section", { has: holder.page.getByRole("heading", { name: "Wallets" }) })
      .getByRole("status"),
  ).toContainText("Linked");
  await holder.page.goto(`/r/${slug}`);
  await expect(holder.page.getByText("Posts in this room are for members. Join to read them.")).toBeVisible();
  await checkPage(holder.page, "room-gated-visitor");
  await membershipSection(holder.page).getByRole("button", { name: "Join this room" }).click();
  await expect(membershipSection(holder.page).getByText(/You're a member of this room through 0x/)).toBeVisible();
  await expect(holder.page.getByText("2 members", { exact: true })).toBeVisible();
  await expect(holder.page.getByText(/^No posts yet/)).toBeVisible();
  await checkPage(holder.page, "room-gated-member");

  // someone without the pass (and with no wallet linked) is told what it takes
  const stranger = await signedInPage(browser, "gate-stranger", { expectedFailures: joinRefusal });
  await stranger.page.goto(`/r/${slug}`);
  await membershipSection(stranger.page).getByRole("button", { name: "Join this room" }).click();
  const refusal = alertInMain(stranger.page);
  await expect(refusal).toContainText("You need at least 1 CUEPASS on Local chain to join.");
  await expect(refusal.getByRole("link", { name: "Link a wallet on your account page" })).toHaveAttribute("href", "/account#wallets");
  await expect(membershipSection(stranger.page).getByRole("button", { name: "Join this room" })).toBeVisible();
  await checkPage(stranger.page, "room-gated-refused");
  expect(stranger.errors).toEqual([]);
  await stranger.close();

  // the holder sells the pass; an hour later (the check made old) the room checks again
  await transferErc721(holderKey, deployer.address, tokenId);
  const room = (await admin.from("rooms").select("id").eq("slug", slug).single()).data!;
  const { error } = await admin
    .from("memberships")
    .update({ verified_at: new Date(Date.now() - 2 * 3600_000).toISOString() })
    .eq("room_id", room.id)
    .eq("user_id", holder.user.id);
  expect(error).toBeNull();
  await holder.page.goto(`/r/${slug}`);
  const lapsed = alertInMain(holder.page);
  await expect(lapsed).toContainText(
    "You are no longer a member of this room. You need at least 1 CUEPASS on Local chain to join. None of your linked wallets hold enough.",
  );
  await expect(membershipSection(holder.page).getByRole("button", { name: "Join this room" })).toBeVisible();
  await expect(holder.page.getByText("1 member", { exact: true })).toBeVisible();
  await expect(holder.page.getByText("Posts in this room are for members. Join to read them.")).toBeVisible();
  await checkPage(holder.page, "room-gated-lapsed");
  const { data: left } = await admin.from("memberships").select("user_id").eq("room_id", room.id).eq("user_id", holder.user.id);
  expect(left).toEqual([]);
  expect(holder.errors).toEqual([]);
  await holder.close();
  expect(errors).toEqual([]);
});

test("an unknown room is the readable not-found page", async ({ page }) => {
  const errors = await watchConsole(page, { expectedFailures: [/\/r\/no-such-room-here$/] });
  const response = await page.goto("/r/no-such-room-here");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "We couldn't find that page" })).toBeVisible();
  expect(errors).toEqual([]);
});

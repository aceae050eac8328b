import { type Browser, expect, type Page, test } from "@playwright/test";
import { contracts } from "../chain/deployment";
import { alertInMain, checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { addMember, admin, createPublicRoom, giveWallet, roleOf, setDisplayName } from "./support/rooms";
import { apiUrl, createConfirmedUser } from "./support/users";

const png = (bytes: number) => {
  // A real 1×1 PNG, padded with a trailing chunk to the size wanted.
  const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  return bytes <= pixel.length ? pixel : Buffer.concat([pixel, Buffer.alloc(bytes - pixel.length)]);
};

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;

async function person(label: string, name: string): Promise<Person> {
  const user = await createConfirmedUser(label);
  await setDisplayName(user.id, name);
  return user;
}

async function openSettings(page: Page, user: Person, slug: string) {
  await signInWithPassword(page, user.email, user.password, `/login?next=/r/${slug}/settings`);
  await expect(page).toHaveURL(new RegExp(`/r/${slug}/settings$`));
  await expectSignedIn(page);
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, errors: await watchConsole(page), close: () => context.close() };
}

const members = (page: Page) => page.getByRole("region", { name: "Members" });
const memberRow = (page: Page, name: string) => members(page).getByRole("listitem").filter({ hasText: name });

test("the owner promotes a member to moderator, who then removes another member but sees no gate editing and no delete", async ({
  page,
  browser,
}) => {
  test.slow(); // two people, two browsers, two full page checks (axe in light and dark, screenshots)
  const errors = await watchConsole(page);
  const owner = await person("settings-owner", "Olive Owner");
  const mia = await person("settings-mia", "Mia Member");
  const noah = await person("settings-noah", "Noah Newcomer");
  const liam = await person("settings-liam", "Liam Listener");
  await giveWallet(mia.id, "mia.eth");
  await giveWallet(noah.id);
  const room = await createPublicRoom(owner.id, "roles");
  await addMember(room.id, mia.id);
  await addMember(room.id, noah.id);
  await addMember(room.id, liam.id);

  await openSettings(page, owner, room.slug);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Room settings");
  await expect(memberRow(page, "Olive Owner")).toContainText("Owner");
  await expect(memberRow(page, "Mia Member")).toContainText("mia.eth");
  await expect(memberRow(page, "Olive Owner").getByRole("button")).toHaveCount(0);
  await checkPage(page, "room-settings-owner");

  await memberRow(page, "Mia Member").getByRole("button", { name: "Make Mia Member a moderator" }).click();
  await expect(memberRow(page, "Mia Member")).toContainText("Moderator");
  await expect(memberRow(page, "Mia Member").getByRole("button", { name: "Make Mia Member a member" })).toBeVisible();
  expect(await roleOf(room.id, mia.id)).toBe("moderator");

  const moderator = await newPage(browser);
  await openSettings(moderator.page, mia, room.slug);
  const modPage = moderator.page;
  await expect(modPage.getByText("You moderate this room.")).toBeVisible();
  await expect(modPage.getByText("Only the room's owner changes who may enter.")).toBeVisible();
  await expect(modPage.getByRole("button", { name: "Check token" })).toHaveCount(0);
  await expect(modPage.getByRole("heading", { name: "Delete this room" })).toHaveCount(0);
  await expect(modPage.getByLabel("Address", { exact: true })).toHaveCount(0);
  await expect(memberRow(modPage, "Olive Owner").getByRole("button")).toHaveCount(0);
  await expect(memberRow(modPage, "Noah Newcomer").getByRole("button", { name: /moderator/ })).toHaveCount(0);
  await checkPage(modPage, "room-settings-moderator");

  await memberRow(modPage, "Noah Newcomer").getByRole("button", { name: "Remove Noah Newcomer" }).click();
  await expect(memberRow(modPage, "Noah Newcomer")).toHaveCount(0);
  expect(await roleOf(room.id, noah.id)).toBeNull();

  // The moderator edits what moderators may: the name, and the description.
  await modPage.getByLabel("Name").fill("Later Night Listening");
  await modPage.getByRole("button", { name: "Save room" }).click();
  await expect(modPage.getByText("Room saved.")).toBeVisible();
  const { data: saved } = await admin.from("rooms").select("name").eq("id", room.id).single();
  expect(saved).toEqual({ name: "Later Night Listening" });

  // Postgres decides, not the page: demoted while the page is open, the next click is refused in words.
  await admin.from("memberships").update({ role: "member" }).eq("room_id", room.id).eq("user_id", mia.id);
  await memberRow(modPage, "Liam Listener").getByRole("button", { name: "Remove Liam Listener" }).click();
  await expect(memberRow(modPage, "Liam Listener").getByRole("alert")).toHaveText(
    "You can't remove this person: moderators remove members, and only the owner removes moderators.",
  );
  expect(await roleOf(room.id, liam.id)).toBe("member");
  await modPage.getByLabel("Description").fill("Edited after losing the role.");
  await modPage.getByRole("button", { name: "Save room" }).click();
  await expect(alertInMain(modPage).filter({ hasText: "Only the room's owner and moderators can edit it." })).toBeVisible();
  await expect(modPage.getByLabel("Description")).toHaveValue("Edited after losing the role.");
  expect(moderator.errors).toEqual([]);
  await moderator.close();
  expect(errors).toEqual([]);
});

test("a member gets a clear refusal, and a signed-out visitor is sent to sign in", async ({ page }) => {
  const errors = await watchConsole(page);
  const owner = await person("refused-owner", "Olive Owner");
  const member = await person("refused-member", "Mia Member");
  const room = await createPublicRoom(owner.id, "refused");
  await addMember(room.id, member.id);

  await page.goto(`/r/${room.slug}/settings`);
  await expect(page).toHaveURL(/\/login\?next=/);
  expect(new URL(page.url()).searchParams.get("next")).toBe(`/r/${room.slug}/settings`);
  await signInWithPassword(page, member.email, member.password, `/login?next=/r/${room.slug}/settings`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Only the owner and moderators can change this room");
  await expect(page.getByRole("link", { name: "Back to the room" })).toHaveAttribute("href", `/r/${room.slug}`);
  await checkPage(page, "room-settings-refused");
  expect(errors).toEqual([]);
});

test("the owner checks a token, gates the room, makes it public again, keeps a taken address typed, moves the room to a free one, and deletes it after typing its address", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const owner = await person("gate-owner", "Olive Owner");
  const room = await createPublicRoom(owner.id, "gate");
  const other = await createPublicRoom(owner.id, "taken");
  await openSettings(page, owner, room.slug);
  const gate = page.getByRole("form", { name: "Gate the room" });

  await gate.getByLabel("Chain").selectOption({ label: "Local chain" });
  await gate.getByLabel("Standard").selectOption("erc721");
  // Not a contract: an account address.
  await gate.getByLabel("Contract address").fill("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  await gate.getByRole("button", { name: "Check token" }).click();
  await expect(page.locator("#contractAddress-error")).toHaveText("There is no contract at 0x7099…79C8 on Local chain");
  await expect(gate.getByLabel("Contract address")).toHaveValue("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");

  await gate.getByLabel("Contract address").fill(contracts.erc721);
  await gate.getByRole("button", { name: "Check token" }).click();
  await expect(gate.getByRole("status")).toHaveText("Token: Cuepoint Backstage Pass (CUEPASS) on Local chain");
  await checkPage(page, "room-settings-gate-checked");
  await gate.getByRole("button", { name: "Save gate" }).click();
  await expect(page.getByText("Gate saved. Only holders of the token may join now.")).toBeVisible();
  await expect(page.getByText("At least 1 CUEPASS on Local chain.")).toBeVisible();
  const { data: gated } = await admin
    .from("rooms")
    .select("visibility, room_gates(chain_id, contract_address, standard, min_balance)")
    .eq("id", room.id)
    .single();
  expect(gated).toEqual({
    visibility: "gated",
    room_gates: { chain_id: 31337, contract_address: contracts.erc721.toLowerCase(), standard: "erc721", min_balance: "1" },
  });

  await page.getByRole("button", { name: "Make the room public" }).click();
  await expect(page.getByText("The room is public: anyone signed in may join.")).toBeVisible();
  await expect(page.getByText("Anyone signed in may join.", { exact: true })).toBeVisible();
  const { data: opened } = await admin.from("rooms").select("visibility, room_gates(room_id)").eq("id", room.id).single();
  expect(opened).toEqual({ visibility: "public", room_gates: null });

  await page.getByLabel("Address", { exact: true }).fill(other.slug);
  await page.getByLabel("Description").fill("Typed before the refusal.");
  await page.getByRole("button", { name: "Save room" }).click();
  await expect(page.locator("#slug-error")).toHaveText("That address is taken");
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue(other.slug);
  await expect(page.getByLabel("Description")).toHaveValue("Typed before the refusal.");

  // A free address moves the room, and the page with it.
  const moved = `${room.slug}-moved`;
  await page.getByLabel("Address", { exact: true }).fill(moved);
  await page.getByRole("button", { name: "Save room" }).click();
  await expect(page).toHaveURL(new RegExp(`/r/${moved}/settings\\?moved=1$`));
  await expect(page.getByText(`Room saved. Its address is now /r/${moved}.`)).toBeVisible();
  const { data: renamed } = await admin.from("rooms").select("slug, description").eq("id", room.id).single();
  expect(renamed).toEqual({ slug: moved, description: "Typed before the refusal." });

  const remove = page.getByRole("form", { name: "Delete this room" });
  await expect(remove.getByRole("button", { name: "Delete room" })).toBeDisabled();
  await remove.getByLabel(`Type ${moved} to confirm`).fill(room.slug);
  await expect(remove.getByRole("button", { name: "Delete room" })).toBeDisabled();
  await remove.getByLabel(`Type ${moved} to confirm`).fill(moved);
  await remove.getByRole("button", { name: "Delete room" }).click();
  await expect(page).toHaveURL(/\/$/);
  const { data: gone } = await admin.from("rooms").select("id").eq("id", room.id);
  expect(gone).toEqual([]);
  expect(errors).toEqual([]);
});

test("a cover uploads with a progress bar and appears; a wrong file is refused before upload; replacing removes the old file; deleting the room removes its folder", async ({
  page,
}) => {
  const errors = await watchConsole(page);
  const owner = await person("cover-owner", "Olive Owner");
  const room = await createPublicRoom(owner.id, "cover");
  await openSettings(page, owner, room.slug);

  await page.getByLabel("Cover picture").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await expect(alertInMain(page)).toHaveText("Covers can be PNG, JPEG or WebP");
  await page.getByLabel("Cover picture").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: png(6 * 1024 * 1024) });
  await expect(alertInMain(page)).toHaveText("Covers up to 5 MB");

  // A slow uplink, so the progress bar is there long enough for a person (and this test) to see it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 100 * 1024 });
  await page.getByLabel("Cover picture").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png(200 * 1024) });
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByText("New cover saved.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const coverPath = async () =>
    ((await admin.from("rooms").select("cover_path").eq("id", room.id).single()).data as { cover_path: string | null }).cover_path;
  const first = await coverPath();
  expect(first).toMatch(new RegExp(`^${room.id}/cover-\\d+\\.png$`));
  const cover = page.getByRole("main").locator(`img[src*="/room-covers/"]`);
  // Drawn through Storage's image transformations, at the width the settings page shows it.
  await expect(cover).toHaveAttribute("src", new RegExp(`/render/image/public/room-covers/${first}\\?width=\\d+`));
  await checkPage(page, "room-settings-cover");

  await page.getByLabel("Cover picture").setInputFiles({ name: "cover2.png", mimeType: "image/png", buffer: png(2048) });
  await expect(cover).not.toHaveAttribute("src", new RegExp(`${first}\\?`));
  const second = await coverPath();
  expect(second).not.toBe(first);
  expect((await fetch(`${apiUrl}/storage/v1/object/public/room-covers/${first}`)).ok).toBe(false);
  expect((await fetch(`${apiUrl}/storage/v1/object/public/room-covers/${second}`)).ok).toBe(true);

  await page.getByLabel(`Type ${room.slug} to confirm`).fill(room.slug);
  await page.getByRole("button", { name: "Delete room" }).click();
  await expect(page).toHaveURL(/\/$/);
  const { data: left } = await admin.storage.from("room-covers").list(room.id);
  expect(left).toEqual([]);
  expect(errors).toEqual([]);
});

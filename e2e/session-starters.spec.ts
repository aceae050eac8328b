import { expect, type Page, test } from "@playwright/test";
import { alertInMain, checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { addMember, admin, createPublicRoom, setDisplayName } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Room settings: the owner chooses who can start listening sessions; moderators see the choice and
// cannot change it; a refused save keeps the person's choice on screen.

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

const startersOf = async (roomId: string) =>
  (await admin.from("rooms").select("session_starters").eq("id", roomId).single()).data?.session_starters;

test("the owner lets any member start listening sessions; a moderator sees it read only; a refused save keeps the choice", async ({
  page,
  browser,
}) => {
  test.slow(); // two people, a full page check (axe in light and dark, screenshots)
  const errors = await watchConsole(page);
  const owner = await person("starters-owner", "Olive Owner");
  const mod = await person("starters-mod", "Mo Moderator");
  const room = await createPublicRoom(owner.id, "starters");
  await addMember(room.id, mod.id, "moderator");

  await openSettings(page, owner, room.slug);
  const form = page.getByRole("form", { name: "Listening sessions" });
  const ownerAndModerators = form.getByRole("radio", { name: /^Owner and moderators/ });
  const anyMember = form.getByRole("radio", { name: /^Any member/ });
  await expect(form.getByRole("group", { name: "Who can start listening sessions" })).toBeVisible();
  await expect(ownerAndModerators).toBeChecked();
  await anyMember.check();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Saved: Any member can start listening sessions.")).toBeVisible();
  await expect(anyMember).toBeChecked();
  expect(await startersOf(room.id)).toBe("members");
  await checkPage(page, "room-settings-session-starters");
  await page.reload();
  await expect(page.getByRole("form", { name: "Listening sessions" }).getByRole("radio", { name: /^Any member/ })).toBeChecked();

  const context = await browser.newContext();
  const modPage = await context.newPage();
  const modErrors = await watchConsole(modPage);
  await openSettings(modPage, mod, room.slug);
  const summary = modPage.getByRole("region", { name: "Listening sessions" });
  await expect(summary).toContainText("Who can start listening sessions: Any member.");
  await expect(summary).toContainText("Only the room's owner changes who can start listening sessions.");
  await expect(modPage.getByRole("radio", { name: /^Any member/ })).toHaveCount(0);
  expect(modErrors).toEqual([]);
  await context.close();

  // Postgres decides: with the room gone while the page is open, the save is refused in words and
  // the owner's choice stays as they left it.
  const form2 = page.getByRole("form", { name: "Listening sessions" });
  await form2.getByRole("radio", { name: /^Owner and moderators/ }).check();
  await admin.from("rooms").delete().eq("id", room.id);
  await form2.getByRole("button", { name: "Save" }).click();
  await expect(alertInMain(page).filter({ hasText: "Only the room's owner decides who may start listening sessions." })).toBeVisible();
  await expect(form2.getByRole("radio", { name: /^Owner and moderators/ })).toBeChecked();
  expect(errors).toEqual([]);
});

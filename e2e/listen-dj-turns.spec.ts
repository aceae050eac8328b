import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, signedInClient, uploadTone } from "./support/post-rooms";
import { addMember, setDisplayName } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// DJ turns with four people in four browsers: the owner sets the room to DJ turns in its settings
// and starts a session; three members join the waitlist, each with a post, and the turns pass in
// order — the first DJ plays at once, ending their turn hands it to the next in the list — while a
// late joiner sees whose turn it is and who is next. Then a vote to skip: with three people
// listening along, one vote shows "1 of 2 to skip" and the track plays on; the second skips it,
// and the next DJ plays.

test.describe.configure({ timeout: 180_000 });

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;
type Seat = { context: BrowserContext; page: Page; errors: string[] };

async function seat(browser: Browser, person: Person, path: string): Promise<Seat> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, person.email, person.password);
  await page.waitForURL("/");
  await page.goto(path);
  return { context, page, errors };
}

const nowPlaying = (page: Page) => page.getByTestId("now-playing-title");
const sessionBar = (page: Page) => page.locator('section[aria-labelledby="now-playing"]');
const turns = (page: Page) => page.getByRole("region", { name: "DJ turns" });
const turnNow = (page: Page) => turns(page).locator("[data-turn-now]");
const turnNext = (page: Page) => turns(page).locator("[data-turn-next]");
const waitlist = (page: Page) => turns(page).getByRole("list", { name: "Waitlist" }).locator("[data-waitlist-name]");
const tally = (page: Page) => page.locator("[data-skip-tally]");

async function joinWaitlist(page: Page, title: string) {
  await turns(page).getByLabel("Your post").selectOption({ label: title });
  await turns(page).getByRole("button", { name: "Join the waitlist" }).click();
}

test("four people: DJ turns pass in order, a late joiner sees whose turn it is, and a vote skips the track at the share and not before", async ({
  browser,
}) => {
  const [ada, bo, cy, dee] = await Promise.all(["dj-ada", "dj-bo", "dj-cy", "dj-dee"].map((name) => createConfirmedUser(name)));
  await Promise.all([
    setDisplayName(ada.id, "Ada"),
    setDisplayName(bo.id, "Bo"),
    setDisplayName(cy.id, "Cy"),
    setDisplayName(dee.id, "Dee"),
  ]);
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "dj-turns");
  for (const person of [bo, cy, dee]) await addMember(room.id, person.id);
  for (const title of ["Bo's tone", "Cy's tone", "Dee's tone"]) await uploadTone(adaClient, room.id, ada.id, title, 120);
  const path = `/r/${room.slug}/listen`;

  // The owner runs the room's sessions in DJ turns, up to 5 minutes a turn.
  const a = await seat(browser, ada, `/r/${room.slug}/settings`);
  const rules = a.page.getByRole("form", { name: "How sessions run" });
  await rules.getByRole("radio", { name: /DJ turns/ }).check();
  await rules.getByLabel("Longest turn").selectOption({ label: "5 minutes" });
  await rules.getByRole("button", { name: "Save" }).click();
  await expect(rules.getByText("Saved. A new session starts the way you chose.")).toBeVisible();
  await checkPage(a.page, "dj-turns-settings");

  // Ada starts the session: nobody plays until someone joins the waitlist.
  await a.page.goto(path);
  await a.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(turnNow(a.page)).toHaveText("Nobody is playing — join the waitlist with a post to take the next turn.");
  await expect(a.page.getByRole("region", { name: "Up next" })).toHaveCount(0);

  // Bo joins first: his turn starts at once, with his post. Cy joins after him.
  const b = await seat(browser, bo, path);
  const c = await seat(browser, cy, path);
  await expect(turns(b.page)).toBeVisible();
  await joinWaitlist(b.page, "Bo's tone");
  await expect(turnNow(b.page)).toContainText("Your turn — Bo's tone");
  await expect(b.page.getByRole("region", { name: "You're hosting" })).toBeVisible();
  for (const page of [a.page, c.page]) {
    await expect(nowPlaying(page)).toHaveText("Bo's tone");
    await expect(turnNow(page)).toContainText("Bo's turn — Bo's tone");
  }
  await joinWaitlist(c.page, "Cy's tone");
  await expect(turnNext(a.page)).toHaveText("Up next: Cy — Cy's tone");
  // The next DJ's pick waits loaded on a listener's page, so the turn's change is a swap and a play.
  await expect(a.page.locator("main audio[data-preload-next]")).toHaveAttribute("title", "Cy's tone");
  // The DJ plays their pick: no other post is offered, and the bar says whose turn it is.
  await expect(b.page.getByLabel("Play a post now")).toHaveCount(0);
  await expect(sessionBar(b.page).getByText("Your turn", { exact: true })).toBeVisible();
  await expect(sessionBar(a.page).getByText("Bo's turn", { exact: true })).toBeVisible();

  // Dee arrives late: she sees whose turn it is and who is next, then joins the waitlist behind Cy.
  const d = await seat(browser, dee, path);
  await expect(nowPlaying(d.page)).toHaveText("Bo's tone");
  await expect(turnNow(d.page)).toContainText("Bo's turn — Bo's tone");
  await expect(turnNext(d.page)).toHaveText("Up next: Cy — Cy's tone");
  await joinWaitlist(d.page, "Dee's tone");
  await expect(waitlist(a.page)).toHaveText(["Cy", "Dee"]);
  await expect(turns(d.page).getByText("You're number 2 on the waitlist.")).toBeVisible();
  await checkPage(d.page, "dj-turns-waiting");
  await checkPage(a.page, "dj-turns-moderator");

  // Bo ends his turn: Cy plays next, Dee is up after her, Bo waits at the back to pick again.
  await turns(b.page).getByRole("button", { name: "End my turn" }).click();
  for (const page of [a.page, b.page, c.page, d.page]) await expect(nowPlaying(page)).toHaveText("Cy's tone");
  await expect(turnNow(c.page)).toContainText("Your turn — Cy's tone");
  await expect(turnNow(a.page)).toContainText("Cy's turn — Cy's tone");
  await expect(turnNext(a.page)).toHaveText("Up next: Dee — Dee's tone");
  await expect(waitlist(a.page)).toHaveText(["Dee", "Bo"]);

  // A vote to skip Cy's track: Ada, Bo and Dee listen along, so two votes skip it. One is not enough.
  await expect(tally(a.page)).toHaveText("Half of the people listening along skip a track");
  await expect(c.page.getByRole("button", { name: "Vote to skip" })).toHaveCount(0); // the DJ does not vote
  await a.page.getByRole("button", { name: "Vote to skip" }).click();
  for (const page of [a.page, b.page, d.page]) await expect(tally(page)).toHaveText("1 of 2 to skip");
  await expect(a.page.getByRole("button", { name: "You voted to skip" })).toBeDisabled();
  await checkPage(b.page, "dj-turns-vote");
  // Not before the share: Cy's track plays on.
  await b.page.waitForTimeout(1_000);
  for (const page of [a.page, b.page, c.page, d.page]) await expect(nowPlaying(page)).toHaveText("Cy's tone");

  // Bo's vote reaches it: Cy's track is skipped, and Dee's turn starts.
  await b.page.getByRole("button", { name: "Vote to skip" }).click();
  for (const page of [a.page, b.page, c.page, d.page]) await expect(nowPlaying(page)).toHaveText("Dee's tone");
  await expect(turnNow(d.page)).toContainText("Your turn — Dee's tone");
  await expect(tally(a.page)).toHaveText("Half of the people listening along skip a track");
  await expect(waitlist(a.page)).toHaveText(["Bo", "Cy"]);

  for (const seated of [a, b, c, d]) expect(seated.errors).toEqual([]);
  await Promise.all([a, b, c, d].map((seated) => seated.context.close()));
});

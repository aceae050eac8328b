// Two-factor sign-in: set up an authenticator app on /account, get asked for its code at the next
// sign-in (before any page), a wrong code refused with a message, the right one signing in at aal2,
// and the authenticator removed with a fresh code. Without JavaScript the code form still works and
// the code only ever travels in a POST body.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClient } from "@supabase/supabase-js";
import { anonKey } from "@cuepoint/stack/keys";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { alertInMain, checkPage, expectSignedIn, passwordForm, signInWithPassword, watchConsole } from "./support/pages";
import { authenticator } from "./support/totp";
import { apiUrl, createConfirmedUser } from "./support/users";

/** The access token's claims from the session cookie @supabase/ssr writes (chunks joined, base64 decoded). */
async function sessionClaims(context: BrowserContext): Promise<Record<string, unknown>> {
  const cookies = (await context.cookies()).filter((cookie) => /^sb-.+-auth-token(\.\d+)?$/.test(cookie.name));
  cookies.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  const raw = cookies.map((cookie) => cookie.value).join("");
  const json = raw.startsWith("base64-") ? Buffer.from(raw.slice("base64-".length), "base64url").toString("utf8") : decodeURIComponent(raw);
  const token = (JSON.parse(json) as { access_token: string }).access_token;
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;
}

const twoFactor = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "Two-factor authentication" }) });
const removeForm = (page: Page) => twoFactor(page).getByRole("form", { name: "Remove authenticator app" });

async function signOutFromAccount(page: Page) {
  await page.goto("/account");
  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

test("set up an authenticator, sign in with its code (a wrong one refused), reach aal2, remove it with a fresh code", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // A wrong code is a 422 from Auth, which the form turns into a message.
  const errors = await watchConsole(page, { expectedFailures: [/\/auth\/v1\/factors\/[^/]+\/verify$/] });
  const user = await createConfirmedUser("mfa");
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  const section = twoFactor(page);
  await expect(section.getByText("Off", { exact: true })).toBeVisible();

  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(section.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await section.getByTestId("totp-secret").getAttribute("data-secret"))!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(section.getByTestId("totp-secret")).toHaveText(secret.match(/.{4}/g)!.join(" "));
  await checkPage(page, "account-two-factor-setup");
  const app = authenticator(secret);

  await section.getByLabel("6-digit code").fill(app.wrongCode());
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(section.getByRole("alert")).toHaveText(
    "That code isn't right. Check your authenticator app and enter the code it shows now.",
  );
  await expect(section.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await section.getByLabel("6-digit code").fill(await app.nextCode());
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(section.getByText("On", { exact: true })).toBeVisible();
  // Its recovery codes come first (the recovery test below looks at them), then the forms.
  await section.getByRole("button", { name: "Done, I've saved them" }).click();
  await expect(section.getByRole("button", { name: "Remove authenticator app" })).toBeVisible();
  expect((await sessionClaims(context)).aal).toBe("aal2");

  await signOutFromAccount(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  expect((await sessionClaims(context)).aal).toBe("aal1");
  // Nothing else opens before the code: any page sends the person back here.
  await page.goto("/rooms/new");
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Frooms%2Fnew$/);
  await page.goto("/login/mfa?next=/account");
  await checkPage(page, "sign-in-code");

  await page.getByLabel("6-digit code").fill(app.wrongCode());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(alertInMain(page)).toHaveText("That code isn't right. Check your authenticator app and enter the code it shows now.");
  await expect(page).toHaveURL(/\/login\/mfa/);
  await page.getByLabel("6-digit code").fill("12 34");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(alertInMain(page)).toHaveText("Enter the 6-digit code from your authenticator app");

  await page.getByLabel("6-digit code").fill(await app.nextCode());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  await expectSignedIn(page);
  const claims = await sessionClaims(context);
  expect(claims.aal).toBe("aal2");
  expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toContain("totp");

  const removal = removeForm(page);
  await removal.getByLabel("6-digit code").fill(app.wrongCode());
  await removal.getByRole("button", { name: "Remove authenticator app" }).click();
  await expect(removal.getByRole("alert")).toHaveText(
    "That code isn't right. Check your authenticator app and enter the code it shows now.",
  );
  await removal.getByLabel("6-digit code").fill(await app.nextCode());
  await removal.getByRole("button", { name: "Remove authenticator app" }).click();
  await expect(section.getByText("Off", { exact: true })).toBeVisible();
  await expect(section.getByRole("button", { name: "Set up an authenticator app" })).toBeVisible();

  // Without a factor, signing in asks for nothing more.
  await signOutFromAccount(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  expect(errors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the code form POSTs: a wrong code is refused with a message, the right one signs in at aal2, and no URL carries a code", async ({
    page,
    context,
  }) => {
    const errors = await watchConsole(page);
    const user = await createConfirmedUser("mfa-nojs");
    // The authenticator is set up through Auth directly, as the account page would.
    const supabase = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const app = authenticator(enrolled!.totp.secret);
    expect((await supabase.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: await app.nextCode() })).error).toBeNull();

    const urls: string[] = [];
    const posts: string[] = [];
    context.on("request", (request) => {
      urls.push(request.url());
      if (request.method() === "POST") posts.push(request.postData() ?? "");
    });

    await page.goto("/login?next=/account");
    const form = passwordForm(page);
    await form.getByLabel("Email", { exact: true }).fill(user.email);
    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);

    const wrong = app.wrongCode();
    await page.getByLabel("6-digit code").fill(wrong);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(alertInMain(page)).toHaveText("That code isn't right. Check your authenticator app and enter the code it shows now.");
    await expect(page.getByLabel("6-digit code")).toHaveValue("");

    const right = await app.nextCode();
    await page.getByLabel("6-digit code").fill(right);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/^[^?]*\/account$/);
    await expectSignedIn(page);
    expect((await sessionClaims(context)).aal).toBe("aal2");

    for (const code of [wrong, right]) {
      expect(
        posts.some((body) => body.includes(code)),
        "the code went in a POST body",
      ).toBe(true);
      expect(urls.filter((url) => url.includes(code))).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

const recoveryShape = /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/;

/** The codes the page shows in its "Recovery codes" list. */
async function shownCodes(page: Page): Promise<string[]> {
  const codes = await twoFactor(page).getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(recoveryShape);
  return codes;
}

/** Turns two-factor on from /account with a new authenticator; answers it and the codes shown once. */
async function setUpTwoFactor(page: Page) {
  const section = twoFactor(page);
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  const app = authenticator((await section.getByTestId("totp-secret").getAttribute("data-secret"))!);
  await section.getByLabel("6-digit code").fill(await app.nextCode());
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(section.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  return { app, codes: await shownCodes(page) };
}

async function signInToCodePage(page: Page, user: { email: string; password: string }) {
  await signOutFromAccount(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);
}

test("recovery codes: shown once at setup (downloaded, copied), made again with a fresh code, and each signs in once and never twice", async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const errors = await watchConsole(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const user = await createConfirmedUser("mfa-recovery");
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  const section = twoFactor(page);

  // Setup: the ten codes, shown once, as a .txt file and on the clipboard.
  const first = await setUpTwoFactor(page);
  expect(new Set(first.codes).size).toBe(10);
  await checkPage(page, "account-recovery-codes");
  const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^cuepoint-recovery-codes-\d{4}-\d{2}-\d{2}\.txt$/);
  const file = readFileSync((await download.path())!, "utf8");
  for (const code of first.codes) expect(file.split("\n")).toContain(code);
  await section.getByRole("button", { name: "Copy" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.codes.join("\n"));
  await section.getByRole("button", { name: "Done, I've saved them" }).click();
  await expect(section.getByText("10 of 10 recovery codes left.", { exact: false })).toBeVisible();
  // Never shown again.
  await page.reload();
  await expect(section.getByText("10 of 10 recovery codes left.", { exact: false })).toBeVisible();
  expect(await page.content()).not.toContain(first.codes[0]);
  await checkPage(page, "account-two-factor-on");

  // New codes need a fresh authenticator code; the old set stops working.
  const regenerate = section.getByRole("form", { name: "Recovery codes" });
  await regenerate.getByLabel("6-digit code").fill("12");
  await regenerate.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(regenerate.getByRole("alert")).toHaveText("Enter the 6-digit code from your authenticator app");
  await regenerate.getByLabel("6-digit code").fill(await first.app.nextCode());
  await regenerate.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(section.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  const second = await shownCodes(page);
  expect(second.filter((code) => first.codes.includes(code))).toEqual([]);
  await section.getByRole("button", { name: "Done, I've saved them" }).click();

  // Sign in with a recovery code: an old one is refused, a new one (typed loosely) works.
  await signInToCodePage(page, user);
  await page.getByText("Use a recovery code instead").click();
  const recovery = page.getByRole("form", { name: "Sign in with a recovery code" });
  await checkPage(page, "sign-in-recovery-code");
  await recovery.getByLabel("Recovery code").fill(first.codes[0]);
  await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
  await expect(recovery.getByRole("alert")).toHaveText(
    "That recovery code isn't right, or it has been used. Check it and try another of your codes.",
  );
  await recovery.getByLabel("Recovery code").fill("abc");
  await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
  await expect(recovery.getByRole("alert")).toHaveText("A recovery code has 16 letters and digits, like K7QM-3XDF-P2AH-W4ZC");
  const used = second[3];
  await recovery.getByLabel("Recovery code").fill(used.toLowerCase().replace(/-/g, " "));
  await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  await expectSignedIn(page);
  await expect(section.getByText("Off", { exact: true })).toBeVisible();
  await expect(section.getByRole("status")).toHaveText(
    "Two-factor is off — you used a recovery code. Set it up again to protect your account.",
  );
  expect((await sessionClaims(context)).aal).toBe("aal1");
  await checkPage(page, "account-recovered");
  // With two-factor off, nothing more is asked at sign-in.
  await signOutFromAccount(page);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/^[^?]*\/account$/);

  // Two-factor on again (a new set): the used code, and the rest of the old set, never work again.
  const third = await setUpTwoFactor(page);
  await section.getByRole("button", { name: "Done, I've saved them" }).click();
  await signInToCodePage(page, user);
  await page.getByText("Use a recovery code instead").click();
  for (const code of [used, second[4]]) {
    await recovery.getByLabel("Recovery code").fill(code);
    await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
    await expect(recovery.getByRole("alert")).toHaveText(
      "That recovery code isn't right, or it has been used. Check it and try another of your codes.",
    );
  }
  await expect(page).toHaveURL(/\/login\/mfa/);
  await page.getByLabel("6-digit code").fill(await third.app.nextCode());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/^[^?]*\/account$/);
  await expect(section.getByText("10 of 10 recovery codes left.", { exact: false })).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe("without JavaScript, a recovery code", () => {
  test.use({ javaScriptEnabled: false });

  test("POSTs from /login/mfa, signs in once with two-factor off, and no URL carries it", async ({ page, context }) => {
    const errors = await watchConsole(page);
    const user = await createConfirmedUser("mfa-recovery-nojs");
    // Two-factor and its codes set up through the API, as the account page does: the database
    // stores SHA-256 of "<user id>:<code without dashes>".
    const supabase = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    await supabase.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const app = authenticator(enrolled!.totp.secret);
    expect((await supabase.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: await app.nextCode() })).error).toBeNull();
    const codes = Array.from({ length: 10 }, (_, i) => `NOJS-CODE-AAAA-AAA${"ABCDEFGHIJ"[i]}`);
    const hashes = codes.map((code) =>
      createHash("sha256")
        .update(`${user.id}:${code.replace(/-/g, "")}`)
        .digest("hex"),
    );
    expect((await supabase.rpc("replace_recovery_codes", { code_hashes: hashes })).error).toBeNull();

    const urls: string[] = [];
    const posts: string[] = [];
    context.on("request", (request) => {
      urls.push(request.url());
      if (request.method() === "POST") posts.push(request.postData() ?? "");
    });
    await page.goto("/login?next=/account");
    const form = passwordForm(page);
    await form.getByLabel("Email", { exact: true }).fill(user.email);
    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount$/);

    await page.getByText("Use a recovery code instead").click();
    const recovery = page.getByRole("form", { name: "Sign in with a recovery code" });
    await recovery.getByLabel("Recovery code").fill("nojs code aaaa aaaz");
    await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
    await expect(recovery.getByRole("alert")).toHaveText(
      "That recovery code isn't right, or it has been used. Check it and try another of your codes.",
    );
    await recovery.getByLabel("Recovery code").fill("nojs code aaaa aaac");
    await recovery.getByRole("button", { name: "Sign in with recovery code" }).click();
    await expect(page).toHaveURL(/^[^?]*\/account$/);
    await expectSignedIn(page);
    await expect(twoFactor(page).getByRole("status")).toHaveText(
      "Two-factor is off — you used a recovery code. Set it up again to protect your account.",
    );
    expect((await sessionClaims(context)).aal).toBe("aal1");
    expect(posts.some((body) => body.includes("nojs code aaaa aaac"))).toBe(true);
    expect(urls.filter((url) => /nojs/i.test(url))).toEqual([]);
    expect(errors).toEqual([]);
  });
});

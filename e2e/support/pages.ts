import { expect, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";

/**
 * Collects console errors and uncaught exceptions in the page; tests expect none. Chromium also logs
 * every 4xx/5xx response as a console error; a test that provokes one on purpose (a wrong password
 * is a 400 from Auth, which the page turns into a message) names that request in `expectedFailures`.
 *
 * It also holds every page to the Content-Security-Policy: each page the test opens must arrive with
 * the header (and a script nonce), and any violation — a `securitypolicyviolation` event in the page
 * or Chromium's console report — is an error.
 */
export async function watchConsole(page: Page, { expectedFailures = [] as RegExp[] } = {}): Promise<string[]> {
  const errors: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content[- ]Security[- ]Policy/i.test(text) && message.type() !== "error") errors.push(`CSP: ${text}`);
    if (message.type() !== "error") return;
    const url = message.location().url;
    if (text.startsWith("Failed to load resource") && expectedFailures.some((pattern) => pattern.test(url))) return;
    errors.push(`${text} (${url})`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("response", (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame() || response.status() >= 300) return;
    if (!(response.headers()["content-type"] ?? "").includes("text/html")) return;
    const policy = response.headers()["content-security-policy"] ?? "";
    // Only the embeddable player (/embed/…) may be framed, by any site.
    const framing = new URL(response.url()).pathname.startsWith("/embed/") ? "frame-ancestors *" : "frame-ancestors 'none'";
    if (!/script-src [^;]*'nonce-[^']+'/.test(policy) || !policy.includes(framing))
      errors.push(`no Content-Security-Policy with a script nonce on ${response.url()}`);
  });
  await page.exposeBinding("__reportCspViolation", (_source, report: string) => errors.push(`CSP violation: ${report}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return errors;
}

/** The sign-in page has several forms, each a landmark named by its heading. */
export const passwordForm = (page: Page) => page.getByRole("form", { name: "Sign in with your password" });
export const magicLinkForm = (page: Page) => page.getByRole("form", { name: "Email me a sign-in link" });

/** Messages in the page's content; Next's route announcer (also role=alert) sits outside <main>. */
export const alertInMain = (page: Page): Locator => page.getByRole("main").getByRole("alert");

export async function signInWithPassword(page: Page, email: string, password: string, path = "/login") {
  await page.goto(path);
  const form = passwordForm(page);
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

const mainNavigation = (page: Page) => page.getByRole("navigation", { name: "Main" });

export async function expectSignedIn(page: Page) {
  await expect(mainNavigation(page).getByRole("link", { name: /Your account/ })).toBeVisible();
}

export async function expectSignedOut(page: Page) {
  await expect(mainNavigation(page).getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
}

/**
 * Every page of the slice gets the same check: no serious or critical axe violations in light and
 * dark, and full-page screenshots at a phone and a desktop width (plus the phone in dark) for a person to look at.
 */
export async function checkPage(page: Page, name: string) {
  // A page reached by a client-side navigation gets its <title> when its metadata has streamed in
  // (Next.js), a moment after its content: the page is checked once it has one.
  await expect(page).toHaveTitle(/\S/);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, name);
  await expectNoSidewaysScroll(page, name);
}

/** From a 360 px phone up, nothing sticks out sideways. */
async function expectNoSidewaysScroll(page: Page, name: string) {
  for (const width of [360, 390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width} px scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function screenshot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `e2e/screenshots/${name}-dark-390.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

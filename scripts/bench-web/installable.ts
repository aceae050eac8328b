// Whether Chromium would install the site as an app — the check Lighthouse 12 no longer makes (it
// removed its PWA category). Chromium answers it itself, over the DevTools protocol: the manifest's
// errors, then what keeps the page from being installable (no icon of the right size, no service
// worker, …). It asks in a browser with a profile of its own: Chromium installs nothing from an
// incognito one, which is what a fresh Playwright context is.
import { chromium } from "@playwright/test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** What keeps `origin`'s home page from being installable; empty when nothing does. */
export async function installabilityErrors(origin: string): Promise<string[]> {
  const profile = await mkdtemp(path.join(tmpdir(), "cuepoint-bench-installable-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    // The worker registers once the page has loaded; asked before it is active, Chromium would say so.
    await page.evaluate(() => Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 15_000))]));
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    return [
      ...manifest.errors.map((error) => `manifest: ${error.message}`),
      ...installabilityErrors.map(({ errorId, errorArguments }) =>
        [errorId, ...errorArguments.map(({ name, value }) => `${name}=${value}`)].join(" "),
      ),
    ];
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

// Lighthouse (performance, accessibility, best practices) in Debian's Chromium, driven over its
// remote-debugging port. A signed-in page is audited with the session cookies already in the
// browser (Lighthouse keeps them: storage reset is off), as a person who signed in would load it.
import type { BrowserContext, Cookie } from "playwright-core";
import { chromium } from "playwright-core";
import lighthouse from "lighthouse";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { portIsFree } from "../../stack/lib/ports.ts";

export const lighthouseCategories = ["performance", "accessibility", "best-practices"] as const;
export type LighthouseScores = Record<(typeof lighthouseCategories)[number], number>;

export async function lighthouseScores(pages: { url: string; cookies?: Cookie[] }[], debuggingPort: number): Promise<LighthouseScores[]> {
  if (!(await portIsFree(debuggingPort))) throw new Error(`Port ${debuggingPort} is in use (BENCH_WEB_DEBUG_PORT)`);
  const profile = mkdtempSync(path.join(tmpdir(), "cuepoint-lighthouse-"));
  let context: BrowserContext | null = null;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", `--remote-debugging-port=${debuggingPort}`],
    });
    const results: LighthouseScores[] = [];
    for (const page of pages) {
      await context.clearCookies();
      if (page.cookies) await context.addCookies(page.cookies);
      const result = await lighthouse(page.url, {
        port: debuggingPort,
        output: "json",
        logLevel: "error",
        onlyCategories: [...lighthouseCategories],
        disableStorageReset: true,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
      const { categories, runtimeError } = result.lhr;
      if (runtimeError) throw new Error(`Lighthouse could not audit ${page.url}: ${runtimeError.message}`);
      results.push(Object.fromEntries(lighthouseCategories.map((id) => [id, Math.round((categories[id]?.score ?? 0) * 100)])) as LighthouseScores);
    }
    return results;
  } finally {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

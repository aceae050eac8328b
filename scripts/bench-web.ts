// `npm run bench:web`: first-load JavaScript of the production build, as Chromium transfers it on a
// cold load (compressed bytes of every script response), for /, /login and /account.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { chromium, type Page } from "playwright-core";
import { loadConfig } from "../stack/lib/config.ts";
import { serviceRoleKey } from "../stack/lib/keys.ts";
import { binDir, repoRoot } from "../stack/lib/paths.ts";
import { waitForPort } from "../stack/lib/ports.ts";

const port = 3300;
const origin = `http://localhost:${port}`;
const goalKb = 150;

async function scriptBytes(page: Page, url: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on("Network.responseReceived", (event) => event.type === "Script" && scripts.add(event.requestId));
  cdp.on("Network.loadingFinished", (event) => scripts.has(event.requestId) && (bytes += event.encodedDataLength));
  await page.goto(url, { waitUntil: "networkidle" });
  await cdp.detach();
  return bytes;
}

async function main() {
  if (spawnSync(path.join(binDir, "next"), ["build"], { cwd: repoRoot, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).status !== 0) process.exit(1);
  const server = spawn(path.join(binDir, "next"), ["start", "-p", String(port)], { cwd: repoRoot, stdio: "ignore" });
  try {
    if (!(await waitForPort(port, 30_000))) throw new Error("next start did not come up");
    const config = loadConfig();
    const admin = createClient(`http://127.0.0.1:${config.apiPort}`, serviceRoleKey, { auth: { persistSession: false } });
    const email = `bench-${Date.now()}@bench.cuepoint.test`;
    const password = "bench-password-123";
    await admin.auth.admin.createUser({ email, password, email_confirm: true });

    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"] });
    const results: [string, number][] = [];
    for (const route of ["/", "/login"]) {
      const page = await (await browser.newContext()).newPage();
      results.push([route, await scriptBytes(page, `${origin}${route}`)]);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email", { exact: true }).first().fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${origin}/`);
    const cold = await context.newPage();
    results.push(["/account", await scriptBytes(cold, `${origin}/account`)]);
    await browser.close();

    console.log("First-load JavaScript (compressed bytes transferred, cold cache):");
    for (const [route, bytes] of results) {
      const kb = bytes / 1024;
      console.log(`  ${route.padEnd(10)} ${kb.toFixed(1).padStart(7)} KB   ${kb < goalKb ? "within" : "OVER"} the ${goalKb} KB goal`);
    }
  } finally {
    server.kill();
  }
}

await main();

// `npm run bench:web`: first-load JavaScript of the production build, as Chromium transfers it on a
// cold load (compressed bytes of every script response), for /, /login and /account.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { chromium, type Page } from "@playwright/test";
import { loadConfig, waitForPort } from "@cuepoint/stack";
import { serviceRoleKey } from "@cuepoint/stack/keys";
import { binDir, repoRoot } from "@cuepoint/stack/paths";

const port = 3300;
const origin = `http://localhost:${port}`;
const goalKb = 150;

/** Compressed bytes of the scripts the page fetches while `action` runs (cache disabled). */
async function scriptBytesDuring(page: Page, action: () => Promise<unknown>): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on("Network.responseReceived", (event) => event.type === "Script" && scripts.add(event.requestId));
  cdp.on("Network.loadingFinished", (event) => scripts.has(event.requestId) && (bytes += event.encodedDataLength));
  await action();
  await page.waitForLoadState("networkidle");
  await cdp.detach();
  return bytes;
}

const scriptBytes = (page: Page, url: string) => scriptBytesDuring(page, () => page.goto(url, { waitUntil: "networkidle" }));

async function main() {
  // Measured with wallet sign-in on (a local client ID, as the e2e build uses), so /login shows that
  // thirdweb stays out of the first load and what opening the wallet adds.
  const buildEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || "cuepoint-bench-local" };
  if (spawnSync(path.join(binDir, "next"), ["build"], { cwd: repoRoot, stdio: "inherit", env: buildEnv }).status !== 0) process.exit(1);
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
    let walletChunk: number | null = null;
    for (const route of ["/", "/login"]) {
      const page = await (await browser.newContext()).newPage();
      results.push([route, await scriptBytes(page, `${origin}${route}`)]);
      const walletButton = page.getByRole("button", { name: "Connect wallet and sign in" });
      if (route === "/login" && (await walletButton.count()) > 0) {
        // What opening the wallet adds (thirdweb, loaded on demand); this browser has no wallet.
        walletChunk = await scriptBytesDuring(page, async () => {
          await walletButton.click();
          await page.getByText("No wallet found").waitFor({ timeout: 30_000 });
        });
      }
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    const form = page.getByRole("form", { name: "Sign in with your password" });
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill(password);
    await form.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${origin}/`);
    const cold = await context.newPage();
    results.push(["/account", await scriptBytes(cold, `${origin}/account`)]);
    await browser.close();

    console.log("First-load JavaScript (compressed bytes transferred, cold cache):");
    for (const [route, bytes] of results) {
      const kb = bytes / 1024;
      console.log(`  ${route.padEnd(10)} ${kb.toFixed(1).padStart(7)} KB   ${kb < goalKb ? "within" : "OVER"} the ${goalKb} KB goal`);
    }
    if (walletChunk === null) console.log("  (wallet sign-in is off in this build: NEXT_PUBLIC_THIRDWEB_CLIENT_ID is not set)");
    else console.log(`  /login, then "Connect wallet" loads ${(walletChunk / 1024).toFixed(1)} KB more on demand (thirdweb)`);
  } finally {
    server.kill();
  }
}

await main();

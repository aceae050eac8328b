import { defineConfig } from "@playwright/test";
import { oembedProvidersPort } from "./tests/helpers/oembed-providers";

// End-to-end tests run in Debian's Chromium (no browser downloads on these machines) against the
// production build (`next build` first; `npm test` does it) and the local stack.
const port = Number(process.env.E2E_PORT ?? 3100);
// Local oEmbed providers (tests/helpers/oembed-providers.ts): `npm test` starts the backend's API with
// OEMBED_ENDPOINT_* pointing here, so the embed function never reaches the real providers.
const oembedPort = oembedProvidersPort();

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  // In CI a test that fails once is run once more; npm test's summary lists every such test with
  // the first try's error ("flaky"), so a timing-dependent failure is seen and fixed, not hidden.
  retries: process.env.CI ? 1 : 0,
  // Generous: these machines share two cores between several builds and test runs, and each
  // page check runs axe twice (light and dark) and takes five screenshots.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      command: `node_modules/.bin/node tests/helpers/oembed-providers.ts ${oembedPort}`,
      url: `http://127.0.0.1:${oembedPort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node_modules/.bin/next start -p ${port}`,
      url: `http://localhost:${port}`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
    },
  ],
});

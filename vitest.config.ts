import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The app's suites — unit: pure code. schema: checks on the migrated database itself (generated
// types), run before the suites that create fixture tables. integration: the app's data layer
// against a running local backend. The backend's own suites are the "stack" project
// (stack/vitest.config.ts). Suites that need the backend start it when it is not running (and
// stop it afterwards); `npm test` starts it once for all layers.
const needsStack = { globalSetup: ["tests/setup/stack.ts"], testTimeout: 30_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { "@/": fileURLToPath(new URL("./", import.meta.url)) } },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", sequence: { groupOrder: 0 } },
      },
      { test: { name: "schema", include: ["tests/schema/**/*.test.ts"], ...needsStack, sequence: { groupOrder: 0 } } },
      "stack/vitest.config.ts",
      {
        resolve: { alias: { "@/": fileURLToPath(new URL("./", import.meta.url)) } },
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], ...needsStack, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

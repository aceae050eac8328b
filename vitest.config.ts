import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// unit: pure code. schema: checks on the migrated database itself (generated types), run before
// the suites that create fixture tables. stack: the local backend's conformance. integration: the
// app's data layer against a running stack. Suites that need the stack start it when it is not
// running (and stop it afterwards); `npm test` starts it once for all layers.
const needsStack = { globalSetup: ["tests/setup/stack.ts"], testTimeout: 30_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      { resolve: { alias: { "@/": fileURLToPath(new URL("./", import.meta.url)) } }, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", sequence: { groupOrder: 0 } } },
      { test: { name: "schema", include: ["tests/schema/**/*.test.ts"], ...needsStack, sequence: { groupOrder: 0 } } },
      { test: { name: "stack", include: ["tests/stack/**/*.test.ts"], ...needsStack, sequence: { groupOrder: 1 } } },
      { test: { name: "integration", include: ["tests/integration/**/*.test.ts"], ...needsStack, sequence: { groupOrder: 1 } } },
    ],
  },
});

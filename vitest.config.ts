import { defineConfig } from "vitest/config";

// unit: pure code. stack: the local backend's conformance. integration: the app's data layer
// against a running stack. The stack and integration projects start the stack when it is not
// running (and stop it afterwards); `npm test` starts it once for all layers.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "stack",
          include: ["tests/stack/**/*.test.ts"],
          globalSetup: ["tests/setup/stack.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/stack.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

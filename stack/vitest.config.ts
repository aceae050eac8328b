import { defineConfig } from "vitest/config";

// The stack's own suites: unit tests of its config, keys and prerequisites, and the conformance
// suites that drive a running stack with the real supabase-js, pg and ws clients. The global
// setup starts the stack when it is not running (and stops it afterwards). Run alone with
// `npm test -w @cuepoint/stack`, or as the "stack" project of the repository's `npm test`.
export default defineConfig({
  test: {
    name: "stack",
    root: import.meta.dirname,
    include: ["tests/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/setup/stack.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // After the repository's schema checks (group 0), which must see the migrated database
    // before these suites create their fixture tables.
    sequence: { groupOrder: 1 },
  },
});

// A clone in a directory only its owner can enter (as root: under /root, or `mktemp -d`), with a
// private stack as the benchmarks run one: the cluster is created where the postgres OS user can
// write it, `status` says where, and the private stack leaves the app's .env.local alone.
// Fixed private ports (6142x): run under `flock /tmp/cuepoint-fixed-ports.lock`.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { sharedClusterRoot } from "@cuepoint/stack";
import { packageDir } from "@cuepoint/stack/paths";
import { localBackendProblem } from "../../lib/local-backend.ts";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const owned = mkdtempSync(path.join(tmpdir(), "cuepoint-clone-")); // mode 0700, like `mktemp -d`
const clone = path.join(owned, "cuepoint");
cpSync(path.join(repoRoot, "supabase"), path.join(clone, "supabase"), { recursive: true });
const ports = { STACK_API_PORT: "61421", STACK_DB_PORT: "61422", STACK_INBOX_PORT: "61424", STACK_CHAIN_PORT: "61445" };
const env = { ...process.env, STACK_WORKDIR: clone, STACK_DIR: path.join(clone, ".stack"), ...ports, STACK_DB_WATCHDOG_GRACE_MS: "600000" };

function stack(args: string[]) {
  const result = spawnSync(process.execPath, [path.join(packageDir, "cli.ts"), ...args], {
    cwd: clone,
    env,
    encoding: "utf8",
    timeout: 180_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

let dataDir: string | undefined;

afterAll(() => {
  stack(["stop"]);
  // The cluster may live outside the clone; remove the directory made for this clone too.
  if (dataDir?.startsWith(`${sharedClusterRoot}/`)) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  rmSync(owned, { recursive: true, force: true });
});

describe("a clone where the postgres OS user cannot enter", { timeout: 240_000 }, () => {
  test("start works, status says where the data is, and the private stack writes no .env.local", async () => {
    expect(statSync(owned).mode & 0o777).toBe(0o700);
    const started = stack(["start"]);
    expect(started.code, started.out).toBe(0);

    const status = stack(["status"]);
    expect(status.code, status.out).toBe(0);
    dataDir = /data in (\S+)/.exec(status.out)?.[1];
    expect(dataDir, status.out).toBeDefined();
    if (process.getuid?.() === 0) {
      // Run as root, PostgreSQL runs as `postgres`, which cannot pass through the 0700 directory.
      expect(dataDir!.startsWith(`${sharedClusterRoot}/cuepoint-`)).toBe(true);
      expect(dataDir!.startsWith(owned)).toBe(false);
    } else {
      expect(dataDir).toBe(path.join(clone, ".stack", "db"));
    }
    expect(existsSync(path.join(dataDir!, "data", "PG_VERSION"))).toBe(true);

    const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${ports.STACK_DB_PORT}/postgres` });
    await client.connect();
    try {
      expect((await client.query("select count(*)::int as n from public.profiles")).rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    // A private stack (own STACK_DIR and ports, as `npm run bench:stack` runs) never speaks for the app.
    expect(existsSync(path.join(clone, ".env.local"))).toBe(false);
  });

  test("bench → dev: once the private stack stops, a .env.local pointing at it is named as the problem", async () => {
    const apiUrl = `http://127.0.0.1:${ports.STACK_API_PORT}`;
    expect(await localBackendProblem(clone, { NEXT_PUBLIC_SUPABASE_URL: apiUrl })).toBeNull();
    expect(stack(["stop"]).code).toBe(0);
    // What an older `start` wrote on a fresh clone, before this rule.
    writeFileSync(path.join(clone, ".env.local"), `NEXT_PUBLIC_SUPABASE_URL="${apiUrl}"\n`);
    const problem = await localBackendProblem(clone, { NEXT_PUBLIC_SUPABASE_URL: apiUrl });
    expect(problem).toContain(`NEXT_PUBLIC_SUPABASE_URL in .env.local is ${apiUrl}, and nothing is listening there`);
    expect(problem).toContain("not this project's local stack (it serves on port 54321)");
  });
});

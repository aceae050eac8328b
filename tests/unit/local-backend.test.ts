// The check `next dev` and `next build` run first (next.config.ts): a .env.local pointing at a local
// backend that is not running is named as the problem.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { localBackendProblem, projectApiPort } from "../../lib/local-backend";
import { isProjectStack } from "@cuepoint/stack";

const project = mkdtempSync(path.join(tmpdir(), "cuepoint-backend-check-"));
let server: net.Server;
let listening: number;

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listening = (server.address() as net.AddressInfo).port;
  mkdirSync(path.join(project, "supabase"));
  writeFileSync(
    path.join(project, "supabase", "config.toml"),
    `project_id = "x"\n\n[api]\nenabled = true\nport = ${listening}\n\n[db]\nport = 1\n`,
  );
});

afterAll(() => {
  server.close();
  rmSync(project, { recursive: true, force: true });
});

const envFile = (url: string) => writeFileSync(path.join(project, ".env.local"), `NEXT_PUBLIC_SUPABASE_URL="${url}"\n`);

describe("localBackendProblem", () => {
  test("reads the project's API port from config.toml", () => {
    expect(projectApiPort(project)).toBe(listening);
  });

  test("nothing to say when the local backend answers, or the backend is hosted, or unset", async () => {
    expect(await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${listening}` })).toBeNull();
    expect(await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: `http://localhost:${listening}` })).toBeNull();
    expect(await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: "https://abcd.supabase.co" }, async () => false)).toBeNull();
    expect(await localBackendProblem(project, {})).toBeNull();
  });

  test("a .env.local left by a private stack that stopped (bench → dev): names the file, the URL and the fix", async () => {
    const stale = `http://127.0.0.1:${await freePort()}`;
    envFile(stale);
    const problem = await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: stale });
    expect(problem).toContain(`NEXT_PUBLIC_SUPABASE_URL in .env.local is ${stale}, and nothing is listening there`);
    expect(problem).toContain(`not this project's local stack (it serves on port ${listening})`);
    expect(problem).toContain("Delete .env.local and run `npm run stack -- start`");
    expect(problem).not.toMatch(/couldn't reach Cuepoint/);
  });

  test("the project's own stack, stopped: says to start it", async () => {
    server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const own = `http://127.0.0.1:${listening}`;
    envFile(own);
    const problem = await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: own });
    expect(problem).toContain("That is this project's local stack. Start it with `npm run stack -- start`");
    // Set in the environment rather than the file: the message says so.
    rmSync(path.join(project, ".env.local"));
    expect(await localBackendProblem(project, { NEXT_PUBLIC_SUPABASE_URL: own })).toContain("(set in the environment)");
  });
});

describe("which stack writes .env.local", () => {
  test("only the project's own: any STACK_DIR or STACK_*_PORT override makes a private stack", () => {
    expect(isProjectStack({})).toBe(true);
    expect(isProjectStack({ STACK_AUTH_JWT_EXPIRY: "120", STACK_DB_PORT: "" })).toBe(true);
    expect(isProjectStack({ STACK_DIR: "/tmp/bench" })).toBe(false);
    expect(isProjectStack({ STACK_API_PORT: "62321" })).toBe(false);
    expect(isProjectStack({ STACK_INBOX_PORT: "61324" })).toBe(false);
    expect(isProjectStack({ STACK_CHAIN_PORT: "55545" })).toBe(false);
  });
});

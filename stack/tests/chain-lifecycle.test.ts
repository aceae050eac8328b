// The local chain in `npm run stack -- start/stop/status/env/reset`, for any project: Anvil starts,
// the deploy script the project's package.json names ("stack": {"chain": {"deploy": …}}) runs once
// on each new chain, the chain's state survives a stop, `reset` gives a new chain, and without a
// deploy script the chain starts empty. The project here is a stand-in (a copy of supabase/ and a
// plain JavaScript deploy script that logs its calls), on a private stack (own STACK_DIR and fixed
// ports: run under `flock /tmp/cuepoint-fixed-ports.lock`).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const stackDir = mkdtempSync(path.join(repoRoot, ".stack-chain-"));
const project = mkdtempSync(path.join(tmpdir(), "stack-chain-project-"));
const ports = { STACK_API_PORT: "65421", STACK_DB_PORT: "65422", STACK_INBOX_PORT: "65424", STACK_CHAIN_PORT: "65445" };
const rpcUrl = `http://127.0.0.1:${ports.STACK_CHAIN_PORT}`;
const apiUrl = (port = ports.STACK_API_PORT) => `http://127.0.0.1:${port}`;

// Anvil's dev accounts #0 and #1 (unlocked, so eth_sendTransaction needs no key) and an address
// the deploy script pays 42 wei.
const [devAccount0, devAccount1] = ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"];
const payee = "0x000000000000000000000000000000000000dEaD";

const deployScript = `
import { appendFileSync, existsSync, readFileSync } from "node:fs";
const here = (file) => new URL(file, import.meta.url);
const rpc = async (url, method, params) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = await response.json();
  if (body.error) throw new Error(body.error.message);
  return body.result;
};
export const version = () => readFileSync(here("version.txt"), "utf8").trim();
export async function deploy(chain) {
  appendFileSync(here("calls.log"), "deploy " + chain.chainId + " " + chain.apiUrl + "\\n");
  if (existsSync(here("fail.txt"))) throw new Error("the stand-in deploy failed");
  await rpc(chain.rpcUrl, "eth_sendTransaction", [{ from: "${devAccount0}", to: "${payee}", value: "0x2a" }]);
}
export async function apiUrlChanged(chain) {
  appendFileSync(here("calls.log"), "apiUrlChanged " + chain.apiUrl + "\\n");
}
export function env(chain) {
  return { STANDIN_CHAIN_RPC: chain.rpcUrl, NEXT_PUBLIC_STANDIN_CHAIN_RPC: chain.rpcUrl };
}
`;

// (without the functions' Deno node_modules, which nothing here runs)
cpSync(path.join(repoRoot, "supabase"), path.join(project, "supabase"), {
  recursive: true,
  filter: (source) => path.basename(source) !== "node_modules",
});
writeFileSync(path.join(project, "deploy.mjs"), deployScript);
writeFileSync(path.join(project, "version.txt"), "1\n");
const manifest = (withDeploy: boolean) =>
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "stand-in", private: true, ...(withDeploy ? { stack: { chain: { deploy: "deploy.mjs" } } } : {}) }),
  );
manifest(true);

function stack(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "stack", "cli.ts"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, STACK_WORKDIR: project, STACK_DIR: stackDir, ...ports, STACK_DB_WATCHDOG_GRACE_MS: "600000", ...extraEnv },
    encoding: "utf8",
    timeout: 180_000,
  });
  const out = `${result.stdout}${result.stderr}`;
  return { code: result.status, out, why: `npm run stack -- ${args.join(" ")} exited ${result.status}:\n${out}${chainLogTail()}` };
}

function chainLogTail(): string {
  const log = path.join(stackDir, "logs", "chain.log");
  return existsSync(log) ? `\n--- chain.log (tail) ---\n${readFileSync(log, "utf8").trim().split("\n").slice(-10).join("\n")}` : "";
}

/** What the deploy script was asked to do so far, one line per call. */
const calls = () =>
  existsSync(path.join(project, "calls.log")) ? readFileSync(path.join(project, "calls.log"), "utf8").trim().split("\n") : [];

async function rpc<T>(method: string, params: unknown[] = [], tries = 3): Promise<T> {
  let response: Response;
  try {
    response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  } catch (error) {
    // a kept-alive connection to an Anvil that has since restarted fails once
    if (tries > 1) return await rpc<T>(method, params, tries - 1);
    throw error;
  }
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}
const balanceOf = async (address: string) => BigInt(await rpc<string>("eth_getBalance", [address, "latest"]));
const blockNumber = async () => Number(await rpc<string>("eth_blockNumber"));
/** Sends `wei` to the payee and waits until it is mined (Anvil answers with the hash first; on a busy machine the block comes after). */
async function pay(wei: number): Promise<void> {
  const hash = await rpc<string>("eth_sendTransaction", [{ from: devAccount1, to: payee, value: `0x${wei.toString(16)}` }]);
  for (let tries = 0; !(await rpc<unknown>("eth_getTransactionReceipt", [hash])); tries++) {
    if (tries > 200) throw new Error(`transaction ${hash} was not mined`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

afterAll(() => {
  stack(["stop"]);
  rmSync(stackDir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

describe("the local chain in `npm run stack`", { timeout: 240_000 }, () => {
  test("start starts Anvil on the chain port and runs the project's deploy script once", async () => {
    const result = stack(["start"]);
    expect(result.code, result.why).toBe(0);
    expect(result.out).toMatch(/Deployed the local chain with deploy\.mjs in [\d.]+ s/);
    expect(Number(await rpc<string>("eth_chainId"))).toBe(31337);
    expect(calls()).toEqual([`deploy 31337 ${apiUrl()}`]);
    expect(await balanceOf(payee)).toBe(42n);
  });

  test("status shows the chain; env prints the deploy script's variables", () => {
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(0);
    expect(status.out).toMatch(/chain\s+running\s+http:\/\/127\.0\.0\.1:65445 \(chain id 31337\) \(pid \d+\)/);
    const env = stack(["env"]);
    expect(env.code, env.why).toBe(0);
    expect(env.out).toContain(`STANDIN_CHAIN_RPC="${rpcUrl}"`);
    expect(env.out).toContain(`NEXT_PUBLIC_STANDIN_CHAIN_RPC="${rpcUrl}"`);
  });

  test("stop stops the chain and keeps its state: the next start deploys nothing and transactions survive", async () => {
    await pay(7);
    const stopped = stack(["stop"]);
    expect(stopped.out, stopped.why).toContain("chain: stopped");
    await expect(rpc("eth_chainId")).rejects.toThrow();
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(1);
    expect(status.out).toMatch(/chain\s+stopped/);

    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).not.toContain("Deployed");
    expect(calls()).toHaveLength(1);
    expect(await balanceOf(payee)).toBe(49n);
  });

  test("a chain killed with SIGKILL comes back with the next start, as it was last saved", async () => {
    const pid = Number(readFileSync(path.join(stackDir, "run", "chain.pid"), "utf8"));
    process.kill(pid, "SIGKILL");
    await expect.poll(() => stack(["status"]).out, { timeout: 10_000 }).toMatch(/chain\s+stopped/);
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).not.toContain("Deployed");
    expect(await balanceOf(payee)).toBe(49n);
  });

  test("started behind another API port, the chain is kept and the script's apiUrlChanged runs", async () => {
    expect(stack(["stop"]).code).toBe(0);
    const moved = stack(["start"], { STACK_API_PORT: "65431" });
    expect(moved.code, moved.why).toBe(0);
    expect(calls().at(-1)).toBe(`apiUrlChanged ${apiUrl("65431")}`);
    expect(await balanceOf(payee)).toBe(49n);
    expect(stack(["stop"]).code).toBe(0);
    expect(stack(["start"]).code).toBe(0);
    expect(calls().at(-1)).toBe(`apiUrlChanged ${apiUrl()}`);
    expect(calls().filter((line) => line.startsWith("deploy"))).toHaveLength(1);
  });

  test("a chain port already in use is named with what holds it, and nothing is left running", async () => {
    expect(stack(["stop"]).code).toBe(0);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(Number(ports.STACK_CHAIN_PORT), "127.0.0.1", resolve));
    try {
      const result = stack(["start"]);
      expect(result.code, result.why).toBe(1);
      expect(result.out).toContain("Port 65445 (local chain) is already in use by");
      expect(result.out).toContain(`(pid ${process.pid})`);
      expect(result.out).toContain("set STACK_CHAIN_PORT to a free port");
      const status = stack(["status"]);
      expect(status.out).toMatch(/database\s+stopped/);
      expect(status.out).toMatch(/api\s+stopped/);
      expect(status.out).toMatch(/chain\s+stopped/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  test("a chain deployed by another version of the script is recreated by the next start", async () => {
    writeFileSync(path.join(project, "version.txt"), "2\n");
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).toContain("The chain's deployment changed: recreating the local chain");
    expect(started.out).toContain("Deployed the local chain with deploy.mjs");
    expect(await balanceOf(payee)).toBe(42n);
    await pay(2);
  });

  test("reset gives a new chain, deployed again", async () => {
    expect(await balanceOf(payee)).toBe(44n);
    const reset = stack(["reset"]);
    expect(reset.code, reset.why).toBe(0);
    expect(reset.out).toContain("Deployed the local chain with deploy.mjs");
    expect(await balanceOf(payee)).toBe(42n);
    expect(calls().filter((line) => line.startsWith("deploy"))).toHaveLength(3);
  });

  test("a failing deploy script stops the start with its error; the next start deploys a new chain", async () => {
    writeFileSync(path.join(project, "fail.txt"), "");
    const failed = stack(["reset"]);
    expect(failed.code, failed.why).toBe(1);
    expect(failed.out).toContain("The chain's deploy script deploy.mjs failed in deploy: the stand-in deploy failed");
    expect(stack(["status"]).out).toMatch(/chain\s+stopped/);
    rmSync(path.join(project, "fail.txt"));
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).toContain("The local chain was never fully deployed: recreating it");
    expect(started.out).toContain("Deployed the local chain with deploy.mjs");
    expect(await balanceOf(payee)).toBe(42n);
  });

  test("with no deploy script named, the chain starts empty and env names no chain variables", async () => {
    manifest(false);
    expect(stack(["stop"]).code).toBe(0);
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).toContain("The chain's deployment changed: recreating the local chain");
    expect(started.out).not.toContain("Deployed");
    expect(await blockNumber()).toBe(0);
    expect(await balanceOf(payee)).toBe(0n);
    expect(stack(["env"]).out).not.toContain("STANDIN_CHAIN_RPC");
    const stopped = stack(["stop"]);
    expect(stopped.out, stopped.why).toContain("chain: stopped");
    const again = stack(["start"]);
    expect(again.code, again.why).toBe(0);
    expect(again.out).not.toContain("recreating");
    expect(stack(["stop"]).out).toContain("chain: stopped");
  });
});

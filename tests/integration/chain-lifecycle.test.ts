// Cuepoint's deploy script (chain/deploy.ts, named in package.json) through `npm run stack --
// start/stop/status/env/reset`: its contracts at their addresses, its ENS variables, its avatar
// records following the API port. A private stack (own STACK_DIR and ports, fixed: run under
// `flock /tmp/cuepoint-fixed-ports.lock`) so the other suites' chain is untouched. The stack's own
// chain behaviour, with a stand-in deploy script, is stack/tests/chain-lifecycle.test.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createPublicClient, createWalletClient, erc20Abi, http, namehash, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, test } from "vitest";
import { avatarUrl, contracts, namelessAccount, seededWallets } from "../../chain/deployment";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const stackDir = mkdtempSync(path.join(repoRoot, ".stack-chain-"));
const ports = { STACK_API_PORT: "64421", STACK_DB_PORT: "64422", STACK_INBOX_PORT: "64424", STACK_CHAIN_PORT: "64545" };
const rpcUrl = `http://127.0.0.1:${ports.STACK_CHAIN_PORT}`;

function stack(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "stack", "cli.ts"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, STACK_DIR: stackDir, ...ports, STACK_DB_WATCHDOG_GRACE_MS: "600000", ...extraEnv },
    encoding: "utf8",
    timeout: 120_000,
  });
  const out = `${result.stdout}${result.stderr}`;
  return { code: result.status, out, why: `npm run stack -- ${args.join(" ")} exited ${result.status}:\n${out}${chainLogTail()}` };
}

function chainLogTail(): string {
  const log = path.join(stackDir, "logs", "chain.log");
  return existsSync(log) ? `\n--- chain.log (tail) ---\n${readFileSync(log, "utf8").trim().split("\n").slice(-10).join("\n")}` : "";
}

const chain = {
  id: 31337,
  name: "local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
} as const;
// retries: a kept-alive connection to an Anvil that has since restarted fails once
const client = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 3 }) });
const { ada } = seededWallets;
const cue = (amount: bigint) => amount * 10n ** 18n;
const balanceOf = (address: `0x${string}`) =>
  client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName: "balanceOf", args: [address] });
const avatarRecord = (name: string) =>
  client.readContract({
    address: contracts.publicResolver,
    abi: parseAbi(["function text(bytes32 node, string key) view returns (string)"]),
    functionName: "text",
    args: [namehash(name), "avatar"],
  });

async function adaSends(amount: bigint): Promise<void> {
  const wallet = createWalletClient({ account: privateKeyToAccount(ada.privateKey), chain, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: contracts.erc20,
    abi: erc20Abi,
    functionName: "transfer",
    args: [namelessAccount.address, amount],
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
}

afterAll(() => {
  stack(["stop"]);
  rmSync(stackDir, { recursive: true, force: true });
});

describe("the local chain in `npm run stack`", { timeout: 240_000 }, () => {
  test("start starts Anvil on the chain port and deploys the contracts at their listed addresses", async () => {
    const result = stack(["start"]);
    expect(result.code, result.why).toBe(0);
    expect(result.out).toContain("Deployed the local chain with chain/deploy.ts");
    expect(await client.getChainId()).toBe(31337);
    for (const [name, address] of Object.entries(contracts)) expect(await client.getCode({ address }), name).toMatch(/^0x[0-9a-f]+$/);
    expect(await avatarRecord("ada.eth")).toBe(avatarUrl("ada.eth", Number(ports.STACK_API_PORT)));
  });

  test("status shows the chain; env prints its RPC URL and the ENS resolver, plain and NEXT_PUBLIC_", () => {
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(0);
    expect(status.out).toMatch(/chain\s+running\s+http:\/\/127\.0\.0\.1:64545 \(chain id 31337\) \(pid \d+\)/);
    const env = stack(["env"]);
    expect(env.code, env.why).toBe(0);
    for (const prefix of ["", "NEXT_PUBLIC_"]) {
      expect(env.out).toContain(`${prefix}CHAIN_RPC_31337="${rpcUrl}"`);
      expect(env.out).toContain(`${prefix}ENS_CHAIN_ID="31337"`);
      expect(env.out).toContain(`${prefix}ENS_UNIVERSAL_RESOLVER="${contracts.universalResolver}"`);
    }
  });

  test("stop stops the chain and keeps its state: the next start deploys nothing and balances survive", async () => {
    await adaSends(cue(7n));
    const stopped = stack(["stop"]);
    expect(stopped.out, stopped.why).toContain("chain: stopped");
    await expect(client.getChainId()).rejects.toThrow();
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(1);
    expect(status.out).toMatch(/chain\s+stopped/);

    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).not.toContain("Deployed");
    expect(await balanceOf(namelessAccount.address)).toBe(cue(7n));
    expect(await balanceOf(ada.address)).toBe(ada.holdings.erc20 - cue(7n));
  });

  test("a chain killed with SIGKILL comes back with the next start, contracts in place", async () => {
    const pid = Number(readFileSync(path.join(stackDir, "run", "chain.pid"), "utf8"));
    process.kill(pid, "SIGKILL");
    await expect.poll(() => stack(["status"]).out, { timeout: 10_000 }).toMatch(/chain\s+stopped/);
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(await client.getCode({ address: contracts.universalResolver })).toMatch(/^0x[0-9a-f]+$/);
    expect(await balanceOf(namelessAccount.address)).toBe(cue(7n));
  });

  test("started behind another API port, the avatar records follow it", async () => {
    expect(stack(["stop"]).code).toBe(0);
    const moved = stack(["start"], { STACK_API_PORT: "64431" });
    expect(moved.code, moved.why).toBe(0);
    expect(await avatarRecord("ada.eth")).toBe(avatarUrl("ada.eth", 64431));
    expect(await avatarRecord("grace.eth")).toBe(avatarUrl("grace.eth", 64431));
    expect(stack(["stop"]).code).toBe(0);
    expect(stack(["start"]).code).toBe(0);
    expect(await avatarRecord("ada.eth")).toBe(avatarUrl("ada.eth", Number(ports.STACK_API_PORT)));
  });

  test("a chain port already in use is named with what holds it, and nothing is left running", async () => {
    expect(stack(["stop"]).code).toBe(0);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(Number(ports.STACK_CHAIN_PORT), "127.0.0.1", resolve));
    try {
      const result = stack(["start"]);
      expect(result.code, result.why).toBe(1);
      expect(result.out).toContain("Port 64545 (local chain) is already in use by");
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

  test("a chain deployed from other contracts (artifacts changed since) is recreated by the next start", async () => {
    const marker = path.join(stackDir, "chain", "deployed.json");
    writeFileSync(marker, JSON.stringify({ ...JSON.parse(readFileSync(marker, "utf8")), version: "built-from-older-sources" }));
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    expect(started.out).toContain("The chain's deployment changed: recreating the local chain");
    expect(started.out).toContain("Deployed the local chain with chain/deploy.ts");
    expect(await balanceOf(namelessAccount.address)).toBe(0n);
    await adaSends(cue(2n));
  });

  test("reset gives a new chain: seeded balances again, the same addresses", async () => {
    expect(await balanceOf(namelessAccount.address)).toBe(cue(2n));
    const reset = stack(["reset"]);
    expect(reset.code, reset.why).toBe(0);
    expect(reset.out).toContain("Deployed the local chain with chain/deploy.ts");
    expect(await balanceOf(namelessAccount.address)).toBe(0n);
    expect(await balanceOf(ada.address)).toBe(ada.holdings.erc20);
    expect(await client.getCode({ address: contracts.erc1155 })).toMatch(/^0x[0-9a-f]+$/);
    const stopped = stack(["stop"]);
    expect(stopped.out, stopped.why).toContain("chain: stopped");
  });
});

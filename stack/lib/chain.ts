import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { readArtifacts } from "../chain/compile.ts";
import { chainId, chainRpcUrl, contracts } from "../chain/deployment.ts";
import type { StackConfig } from "./config.ts";
import { stateDir } from "./paths.ts";
import { StackError } from "./run.ts";
import { type ServiceSpec, servicePid, startService, stopService } from "./services.ts";

/**
 * The local chain: Anvil (npm package @foundry-rs/anvil, whose binary for this platform arrives as
 * an optional dependency) on 127.0.0.1:<chainPort>, chain id 31337. Anvil keeps its state in
 * .stack/chain/state.json (written when it stops, read when it starts), so a warm start deploys
 * nothing. A chain without the contracts (new, reset, or killed before it could save) is deployed
 * and seeded again: the same transactions from the same deployer give the same addresses.
 */
const chainDir = path.join(stateDir, "chain");
const statePath = path.join(chainDir, "state.json");
/** What the chain was deployed from and for: the contracts' input digest and the API port of the avatar URLs. */
const seedMarkerPath = path.join(chainDir, "seeded.json");

const anvilPlatforms: Record<string, string> = { "linux-x64": "linux-amd64", "linux-arm64": "linux-arm64", "darwin-x64": "darwin-amd64", "darwin-arm64": "darwin-arm64" };

function anvilBinary(): string {
  const platform = anvilPlatforms[`${process.platform}-${process.arch}`];
  const pkg = platform && `@foundry-rs/anvil-${platform}`;
  try {
    if (pkg) return createRequire(import.meta.url).resolve(`${pkg}/bin/anvil`);
  } catch {
    // reported below
  }
  throw new StackError(
    `Anvil's binary for ${process.platform}-${process.arch} is missing${pkg ? ` (npm package ${pkg}, an optional dependency of @foundry-rs/anvil)` : ""}.\n` +
      "Run `npm install` so npm fetches it.",
  );
}

function chainService(config: StackConfig): ServiceSpec {
  return {
    name: "chain",
    command: anvilBinary(),
    args: ["--host", "127.0.0.1", "--port", String(config.chainPort), "--chain-id", String(chainId), "--state", statePath],
    ports: [{ port: config.chainPort, what: "local chain", hint: "set STACK_CHAIN_PORT to a free port" }],
  };
}

interface SeedMarker {
  inputDigest: string;
  apiPort: number;
}

function readMarker(): SeedMarker | undefined {
  try {
    return JSON.parse(readFileSync(seedMarkerPath, "utf8")) as SeedMarker;
  } catch {
    return undefined;
  }
}

/** One JSON-RPC call with fetch (no client library: a warm start makes two of these). */
export async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new StackError(`${method} on the local chain failed: ${body.error.message}`);
  return body.result as T;
}

async function waitForRpc(rpcUrl: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      return await rpc<string>(rpcUrl, "eth_chainId");
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return undefined;
}

export interface ChainStartReport {
  chain: "started" | "already running";
  deployed: "deployed" | "kept";
}

/** Starts Anvil (unless running) and makes sure the contracts and seed are on the chain. */
export async function startChain(config: StackConfig, log: (line: string) => void): Promise<ChainStartReport> {
  const digest = readArtifacts().inputDigest;
  let marker = readMarker();
  // A chain built from other contracts, or one whose deployment never finished (no marker), is
  // replaced: the seed recreates everything the same way.
  if ((existsSync(statePath) || servicePid("chain")) && marker?.inputDigest !== digest) {
    log(marker ? "The chain's contracts changed: recreating the local chain" : "The local chain was never fully deployed: recreating it");
    await removeChain();
    marker = undefined;
  }
  mkdirSync(chainDir, { recursive: true });
  const chain = await startService(chainService(config));
  const rpcUrl = chainRpcUrl(config.chainPort);
  const id = await waitForRpc(rpcUrl, 15_000);
  if (id === undefined || Number(id) !== chainId) {
    if (chain === "started") await stopChain();
    throw new StackError(id === undefined ? `The local chain did not answer on ${rpcUrl}` : `${rpcUrl} answers with chain id ${Number(id)}, not ${chainId}`);
  }
  try {
    const code = await rpc<string>(rpcUrl, "eth_getCode", [contracts.universalResolver, "latest"]);
    let deployed: ChainStartReport["deployed"] = "kept";
    if (code === "0x") {
      // loaded only when needed: viem takes a good part of a second to import
      const began = performance.now();
      const { deployAndSeed } = await import("../chain/deploy.ts");
      await deployAndSeed(rpcUrl, config.apiPort);
      log(`Deployed the chain's contracts and seeded its names and tokens in ${((performance.now() - began) / 1000).toFixed(2)} s`);
      deployed = "deployed";
    } else if (marker?.apiPort !== config.apiPort) {
      const { refreshAvatars } = await import("../chain/deploy.ts");
      await refreshAvatars(rpcUrl, config.apiPort);
    }
    writeFileSync(seedMarkerPath, JSON.stringify({ inputDigest: digest, apiPort: config.apiPort } satisfies SeedMarker));
    return { chain, deployed };
  } catch (error) {
    if (chain === "started") await stopChain();
    throw error;
  }
}

/** Stops Anvil; it writes its state to .stack/chain/state.json as it exits. */
export async function stopChain(): Promise<"stopped" | "not running"> {
  return await stopService("chain");
}

/** Stops Anvil and forgets the chain: the next start deploys and seeds a new one. */
export async function removeChain(): Promise<void> {
  await stopChain();
  rmSync(chainDir, { recursive: true, force: true });
}

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type LocalChain, type ProjectChainDeploy, loadChainDeploy, runDeployStep } from "./chain-deploy.ts";
import type { StackConfig } from "./config.ts";
import { stateDir } from "./paths.ts";
import { StackError } from "./run.ts";
import { type ServiceSpec, servicePid, startService, stopService } from "./services.ts";

/**
 * The local chain: Anvil (npm package @foundry-rs/anvil, whose binary for this platform arrives as
 * an optional dependency) on 127.0.0.1:<chainPort>, chain id 31337. Anvil keeps its state in
 * .stack/chain/state.json (written when it stops, read when it starts). On a new chain the stack
 * runs the project's deploy script once (chain-deploy.ts); a warm start deploys nothing. A chain
 * whose deployment never finished, or was made by another script or version of it, is replaced.
 */
const chainDir = path.join(stateDir, "chain");
const statePath = path.join(chainDir, "state.json");
/** What the chain was deployed with: the script, its version, the API URL it was given. */
const deployMarkerPath = path.join(chainDir, "deployed.json");

/** Anvil's default chain id, which the stack keeps. */
export const localChainId = 31337;

export function chainRpcUrl(config: Pick<StackConfig, "chainPort">): string {
  return `http://127.0.0.1:${config.chainPort}`;
}

/** The chain as the deploy script sees it. */
export function localChain(config: Pick<StackConfig, "chainPort" | "apiPort">, log: (line: string) => void = () => undefined): LocalChain {
  return { chainId: localChainId, rpcUrl: chainRpcUrl(config), apiUrl: `http://127.0.0.1:${config.apiPort}`, log };
}

/** The deploy script's variables for the app (`env`, .env.local); none without a script. */
export async function chainEnv(config: StackConfig): Promise<Record<string, string>> {
  const deploy = await loadChainDeploy();
  if (!deploy?.script.env) return {};
  const { chainId, rpcUrl, apiUrl } = localChain(config);
  return await runDeployStep(deploy, "env", () => deploy.script.env!({ chainId, rpcUrl, apiUrl }));
}

/** The same variables for edge functions: without the browser's NEXT_PUBLIC_ copies. */
export async function functionsChainEnv(config: StackConfig): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await chainEnv(config)).filter(([name]) => !name.startsWith("NEXT_PUBLIC_")));
}

const anvilPlatforms: Record<string, string> = {
  "linux-x64": "linux-amd64",
  "linux-arm64": "linux-arm64",
  "darwin-x64": "darwin-amd64",
  "darwin-arm64": "darwin-arm64",
};

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
    args: ["--host", "127.0.0.1", "--port", String(config.chainPort), "--chain-id", String(localChainId), "--state", statePath],
    ports: [{ port: config.chainPort, what: "local chain", hint: "set STACK_CHAIN_PORT to a free port" }],
  };
}

interface DeployMarker {
  /** The deploy script's path as package.json names it; null when none is named. */
  script: string | null;
  version: string | null;
  apiUrl: string;
}

function readMarker(): DeployMarker | undefined {
  try {
    return JSON.parse(readFileSync(deployMarkerPath, "utf8")) as DeployMarker;
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
  /** deployed: the deploy script ran on a new chain; kept: the chain already held its deployment; empty: no script is named. */
  deployed: "deployed" | "kept" | "empty";
}

/** Starts Anvil (unless running) and, on a new chain, runs the project's deploy script. */
export async function startChain(config: StackConfig, log: (line: string) => void): Promise<ChainStartReport> {
  const deploy: ProjectChainDeploy | undefined = await loadChainDeploy();
  const version = deploy?.script.version ? await runDeployStep(deploy, "version", () => deploy.script.version!()) : null;
  const chainInfo = localChain(config, log);
  const wanted: DeployMarker = { script: deploy?.name ?? null, version, apiUrl: chainInfo.apiUrl };
  let marker = readMarker();
  // A chain deployed by another script or version of it, or one whose deployment never finished (no
  // marker), is replaced: the script deploys the new one.
  if ((existsSync(statePath) || servicePid("chain")) && (marker?.script !== wanted.script || marker?.version !== wanted.version)) {
    log(marker ? "The chain's deployment changed: recreating the local chain" : "The local chain was never fully deployed: recreating it");
    await removeChain();
    marker = undefined;
  }
  mkdirSync(chainDir, { recursive: true });
  const chain = await startService(chainService(config));
  const { rpcUrl } = chainInfo;
  const id = await waitForRpc(rpcUrl, 15_000);
  if (id === undefined || Number(id) !== localChainId) {
    if (chain === "started") await stopChain();
    throw new StackError(
      id === undefined
        ? `The local chain did not answer on ${rpcUrl}`
        : `${rpcUrl} answers with chain id ${Number(id)}, not ${localChainId}`,
    );
  }
  try {
    let deployed: ChainStartReport["deployed"] = deploy ? "kept" : "empty";
    // No block yet: a new chain (or one killed before it ever saved its state).
    const fresh = Number(await rpc<string>(rpcUrl, "eth_blockNumber")) === 0;
    if (deploy && fresh) {
      // Until the script has finished, the chain counts as never fully deployed.
      rmSync(deployMarkerPath, { force: true });
      const began = performance.now();
      await runDeployStep(deploy, "deploy", () => deploy.script.deploy(chainInfo));
      log(`Deployed the local chain with ${deploy.name} in ${((performance.now() - began) / 1000).toFixed(2)} s`);
      deployed = "deployed";
    } else if (deploy?.script.apiUrlChanged && marker?.apiUrl !== wanted.apiUrl) {
      await runDeployStep(deploy, "apiUrlChanged", () => deploy.script.apiUrlChanged!(chainInfo));
    }
    writeFileSync(deployMarkerPath, JSON.stringify(wanted));
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

/** Stops Anvil and forgets the chain: the next start gives a new one (deployed again). */
export async function removeChain(): Promise<void> {
  await stopChain();
  rmSync(chainDir, { recursive: true, force: true });
}

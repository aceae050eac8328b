import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { workDir } from "./paths.ts";
import { StackError } from "./run.ts";

/**
 * The project's deploy script for the local chain. The project names it in its package.json, in a
 * field the Supabase CLI never reads:
 *
 *     "stack": { "chain": { "deploy": "chain/deploy.ts" } }
 *
 * (a path relative to the project, the directory holding supabase/). Without one the chain starts
 * empty. The script is an ES module the stack imports; it exports `deploy` and optionally the rest
 * of ChainDeployScript.
 */
export interface ChainDeployScript {
  /** Runs once on each new chain (after a first start, a `reset`, or a change of `version`). */
  deploy(chain: LocalChain): Promise<void>;
  /**
   * What `deploy` puts on the chain (e.g. a digest of the compiled contracts). A kept chain that was
   * deployed under another version is replaced by a new one, deployed again.
   */
  version?(): string;
  /** Runs on a start that keeps the chain when the stack's API URL is not the one it was deployed for. */
  apiUrlChanged?(chain: LocalChain): Promise<void>;
  /**
   * The variables that tell the app where the chain and the deployment are: `npm run stack -- env`
   * prints them, a new .env.local gets them, and edge functions get those not named NEXT_PUBLIC_….
   */
  env?(chain: Omit<LocalChain, "log">): Record<string, string>;
}

/** What the stack hands the deploy script. */
export interface LocalChain {
  /** Anvil's chain id, 31337. */
  chainId: number;
  /** http://127.0.0.1:<chain port> */
  rpcUrl: string;
  /** The stack's API gateway, http://127.0.0.1:<api port> (for records that point at the stack). */
  apiUrl: string;
  log: (line: string) => void;
}

export interface ProjectChainDeploy {
  /** The path as package.json names it, relative to the project. */
  name: string;
  script: ChainDeployScript;
}

/** package.json's `stack.chain.deploy`, or undefined when the project names no deploy script. */
export function chainDeployName(projectDir = workDir): string | undefined {
  const manifestPath = path.join(projectDir, "package.json");
  if (!existsSync(manifestPath)) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    throw new StackError(`${manifestPath} is not valid JSON: ${(error as Error).message}`);
  }
  const stack = (manifest as { stack?: unknown }).stack;
  const chain = stack && typeof stack === "object" ? (stack as { chain?: unknown }).chain : undefined;
  const deploy = chain && typeof chain === "object" ? (chain as { deploy?: unknown }).deploy : undefined;
  if (deploy === undefined) return undefined;
  if (typeof deploy !== "string" || !deploy)
    throw new StackError(`"stack.chain.deploy" in ${manifestPath} must be the path of the chain's deploy script`);
  return deploy;
}

/** Imports the project's deploy script (undefined when none is named). */
export async function loadChainDeploy(projectDir = workDir): Promise<ProjectChainDeploy | undefined> {
  const name = chainDeployName(projectDir);
  if (!name) return undefined;
  const file = path.resolve(projectDir, name);
  if (!existsSync(file)) throw new StackError(`The chain's deploy script ${name} (package.json "stack.chain.deploy") does not exist`);
  const script = (await import(pathToFileURL(file).href)) as Partial<ChainDeployScript>;
  if (typeof script.deploy !== "function") throw new StackError(`The chain's deploy script ${name} exports no deploy(chain) function`);
  return { name, script: script as ChainDeployScript };
}

/** Runs one of the script's steps; its failure names the script. */
export async function runDeployStep<T>(deploy: ProjectChainDeploy, step: string, body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw new StackError(
      `The chain's deploy script ${deploy.name} failed in ${step}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

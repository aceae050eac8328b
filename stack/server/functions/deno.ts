import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FunctionSettings, FunctionsOptions } from "./options.ts";
import type { WorkerLaunch } from "./worker.ts";

const bootstrapPath = path.join(path.dirname(fileURLToPath(import.meta.url)), "bootstrap.ts");

/**
 * The deno.json a function runs with: its own folder's, else supabase/functions/'s. Deno would
 * otherwise look upward from the bootstrap and find the app's package.json.
 */
function configFlags(functionsDir: string, settings: FunctionSettings): string[] {
  const candidates = [path.dirname(settings.entrypoint), functionsDir].flatMap((dir) => [
    path.join(dir, "deno.json"),
    path.join(dir, "deno.jsonc"),
  ]);
  const config = candidates.find((file) => existsSync(file));
  const flags = config ? ["--config", config] : ["--no-config"];
  if (settings.importMap) flags.push("--import-map", settings.importMap);
  return flags;
}

/** Environment of the Deno process itself: its caches and the npm registry, nothing of the host's. */
function runtimeEnv(options: FunctionsOptions): Record<string, string> {
  const passed = [
    "NPM_CONFIG_REGISTRY",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "DENO_CERT",
    "DENO_TLS_CA_STORE",
    "NODE_EXTRA_CA_CERTS",
  ];
  const env: Record<string, string> = { DENO_DIR: options.denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  for (const name of passed) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}

/**
 * Permissions mirror what the edge runtime grants: network, environment, reading files, writing
 * only to the temp dir, no subprocesses. 256 MB of heap, as a hosted worker gets.
 */
export function workerLaunch(
  options: FunctionsOptions,
  name: string,
  settings: FunctionSettings,
  functionEnv: Record<string, string>,
): WorkerLaunch {
  return {
    name,
    command: options.denoBinary,
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-sys",
      `--allow-write=${os.tmpdir()}`,
      "--v8-flags=--max-old-space-size=256",
      ...configFlags(options.functionsDir, settings),
      bootstrapPath,
    ],
    cwd: path.dirname(settings.entrypoint),
    env: { ...functionEnv, ...runtimeEnv(options), STACK_FUNCTION_ENTRY_URL: pathToFileURL(settings.entrypoint).href },
    bootTimeoutMs: options.bootTimeoutMs,
    log: (line) => options.log(`[functions:${name}] ${line}`),
  };
}

/**
 * Downloads the npm packages the functions import into the Deno cache, in the background, so the
 * first request does not wait for the registry. Failures only log: the worker retries on boot.
 */
export function prewarm(options: FunctionsOptions, entries: { settings: FunctionSettings }[]): { done: Promise<void>; stop: () => void } {
  const children: ChildProcess[] = [];
  const byConfig = new Map<string, string[]>();
  for (const { settings } of entries) {
    const flags = configFlags(options.functionsDir, settings).join("\u0000");
    byConfig.set(flags, [...(byConfig.get(flags) ?? []), settings.entrypoint]);
  }
  const runs = [...byConfig].map(
    ([flags, files]) =>
      new Promise<void>((resolve) => {
        const args = ["install", "--quiet", ...flags.split("\u0000"), "--entrypoint", ...files];
        const child = spawn(options.denoBinary, args, {
          cwd: options.functionsDir,
          env: runtimeEnv(options) as unknown as NodeJS.ProcessEnv,
          stdio: ["ignore", "ignore", "pipe"],
        });
        children.push(child);
        let errors = "";
        child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
        child.on("error", (error) => {
          options.log(`[functions] could not pre-fetch dependencies: ${error.message}`);
          resolve();
        });
        child.on("exit", (code) => {
          if (code !== 0) options.log(`[functions] pre-fetching dependencies failed: ${errors.trim().split("\n").slice(-3).join(" | ")}`);
          resolve();
        });
      }),
  );
  return {
    done: Promise.all(runs).then(() => undefined),
    stop: () => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

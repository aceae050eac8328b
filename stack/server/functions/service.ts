import { existsSync, readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../gateway.ts";
import { forwardedAuthorization, jwtRefusal } from "./authorize.ts";
import { prewarm } from "./deno.ts";
import { sendFunctionNotFound, sendNoRoute, sendUnauthorized, sendWorkerError, workerErrors } from "./errors.ts";
import type { FunctionSettings, FunctionsOptions } from "./options.ts";
import { WorkerPool } from "./pool.ts";
import { proxyToWorker } from "./proxy.ts";
import { watchFunctions } from "./watch.ts";

/** Function names as the CLI accepts them; folders starting with `_` (e.g. `_shared`) are not functions. */
const functionName = /^[A-Za-z][A-Za-z0-9_-]*$/;

export interface FunctionsService {
  handle(req: IncomingMessage, res: ServerResponse, ctx: GatewayContext): Promise<void>;
  /** Names of the functions found on disk. */
  list(): string[];
  /** Resolves once the background fetch of npm dependencies has finished. */
  prewarmed: Promise<void>;
  close(): void;
}

/** Splits `/hello/a/b?x=1` into the function name and what the function sees (`/hello/a/b?x=1`). */
function route(pathWithQuery: string): { name: string; path: string } {
  const [, name = ""] = /^\/([^/?]*)/.exec(pathWithQuery) ?? [];
  try {
    return { name: decodeURIComponent(name), path: pathWithQuery };
  } catch {
    return { name: "", path: pathWithQuery }; // malformed escape: no function has that name
  }
}

export function createFunctionsService(options: FunctionsOptions): FunctionsService {
  const pool = new WorkerPool(options);

  const servable = (name: string): FunctionSettings | undefined => {
    if (!functionName.test(name)) return undefined;
    const settings = options.settings(name);
    return settings.enabled && existsSync(settings.entrypoint) ? settings : undefined;
  };

  const list = () => {
    if (!existsSync(options.functionsDir)) return [];
    return readdirSync(options.functionsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && servable(entry.name))
      .map((entry) => entry.name);
  };

  const stopWatching =
    options.watch && options.enabled
      ? watchFunctions(options.functionsDir, (segment, changedAt) => {
          // A function's own folder reloads that function; anything shared (_shared, .env, deno.json) reloads all.
          if (functionName.test(segment)) pool.invalidate(segment, changedAt);
          else pool.invalidate(undefined, changedAt);
          options.log(`[functions] ${segment} changed: reloading ${functionName.test(segment) ? segment : "all functions"}`);
        })
      : () => undefined;

  const prefetch = prewarm(options, options.enabled ? list().map((name) => ({ settings: options.settings(name) })) : []);

  async function handle(req: IncomingMessage, res: ServerResponse, ctx: GatewayContext): Promise<void> {
    if (!options.enabled) return sendNoRoute(res);
    const target = route(ctx.path);
    const settings = servable(target.name);
    if (!settings) return sendFunctionNotFound(res);

    const authorization = forwardedAuthorization(req.headers);
    // Preflights reach the function unauthenticated, as in the edge runtime.
    if (req.method !== "OPTIONS" && settings.verifyJwt) {
      const refusal = jwtRefusal(authorization);
      if (refusal) return sendUnauthorized(res, refusal);
    }

    const worker = pool.acquire(target.name, settings);
    try {
      let port: number;
      try {
        port = await worker.ready;
      } catch (error) {
        options.log(`[functions] ${(error as Error).message}`);
        return sendWorkerError(res, workerErrors.boot);
      }
      const headers = { ...req.headers, ...(authorization ? { authorization } : {}) };
      const outcome = await proxyToWorker(req, res, { port, path: target.path, headers, wallClockMs: options.wallClockMs });
      if (outcome === "timed out") {
        options.log(`[functions] ${target.name}: no response within ${options.wallClockMs} ms, terminating the worker`);
        pool.terminate(worker);
      } else if (outcome === "crashed") {
        options.log(`[functions] ${target.name}: the worker failed during ${req.method} ${target.path}`);
        // retire it now: its exit event may come after the caller's next request, which must get a fresh worker
        pool.terminate(worker);
      }
    } finally {
      pool.release(worker);
    }
  }

  return {
    handle,
    list,
    prewarmed: prefetch.done,
    close: () => {
      prefetch.stop();
      stopWatching();
      pool.close();
    },
  };
}

import type { ServerResponse } from "node:http";

/**
 * The responses the Supabase CLI's edge runtime (its "main" worker in `supabase start`) gives when
 * it, not the function, answers: unknown function, JWT check, and worker failures.
 */
export const workerErrors = {
  /** The function's module failed to load or never called Deno.serve. */
  boot: { status: 503, body: { code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" } },
  /** The function threw, or its process died while handling the request. */
  crashed: { status: 500, body: { code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" } },
  /** The request outlived the worker's wall-clock limit; the worker is terminated. */
  limit: { status: 546, body: { code: "WORKER_LIMIT", message: "Worker failed to respond due to a resource limit (please check logs)" } },
} as const;

export type WorkerError = (typeof workerErrors)[keyof typeof workerErrors];

export function sendWorkerError(res: ServerResponse, error: WorkerError): void {
  sendBody(res, error.status, JSON.stringify(error.body), "application/json");
}

/** `supabase start` answers an unknown function name in plain text. */
export function sendFunctionNotFound(res: ServerResponse): void {
  sendBody(res, 404, "Function not found", "text/plain");
}

/** With the edge runtime disabled, the gateway has no route for /functions/v1 (Kong's answer). */
export function sendNoRoute(res: ServerResponse): void {
  sendBody(res, 404, JSON.stringify({ message: "no Route matched with those values" }), "application/json");
}

/** verify_jwt refusals carry `msg`, as the CLI's main worker writes them. */
export function sendUnauthorized(res: ServerResponse, msg: string): void {
  sendBody(res, 401, JSON.stringify({ msg }), "application/json");
}

function sendBody(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

// Runs inside Deno, one process per edge function. It makes the function's `Deno.serve` listen
// on a free loopback port (whatever port the function asks for), announces that port on stdout,
// then imports the function. The Node service proxies /functions/v1/<name> requests to it.
// Typed loosely on purpose: the repo's tsconfig checks this file without Deno's types.

export {};

type Handler = (request: Request, info: unknown) => Response | Promise<Response>;
interface ServeOptions {
  handler?: Handler;
  onError?: (error: unknown) => Response | Promise<Response>;
  signal?: AbortSignal;
}
interface DenoRuntime {
  env: { get(name: string): string | undefined; delete(name: string): void };
  serve(options: Record<string, unknown>, handler: Handler): unknown;
  stdin: { readable: ReadableStream<Uint8Array> };
  exit(code: number): never;
}

const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
const entryUrl = deno.env.get("STACK_FUNCTION_ENTRY_URL") ?? "";
const readyMarker = deno.env.get("STACK_FUNCTION_READY_MARKER") ?? "";
deno.env.delete("STACK_FUNCTION_ENTRY_URL");
deno.env.delete("STACK_FUNCTION_READY_MARKER");

/** Exit code that tells the service the module loaded but never served (a boot error). */
const noServeExitCode = 86;

// An uncaught throw in the handler answers as the edge runtime does, unless the function set onError.
function workerError(error: unknown): Response {
  console.error(error);
  const body = { code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" };
  return Response.json(body, { status: 500 });
}

let serving = false;
const originalServe = deno.serve.bind(deno);
(deno as { serve: unknown }).serve = (first: unknown, second?: unknown) => {
  const options: ServeOptions = typeof first === "function" ? {} : { ...(first as ServeOptions) };
  const handler = (typeof first === "function" ? first : typeof second === "function" ? second : options.handler) as Handler | undefined;
  if (!handler) throw new TypeError("Deno.serve needs a handler");
  if (serving) throw new Error("An edge function can call Deno.serve only once");
  serving = true;
  return originalServe(
    {
      hostname: "127.0.0.1",
      port: 0,
      signal: options.signal,
      onError: options.onError ?? workerError,
      onListen: ({ port }: { port: number }) => console.log(`${readyMarker}${port}`),
    },
    handler,
  );
};

// The service holds our stdin open; when it goes away (even killed), stdin ends and so do we.
void (async () => {
  try {
    const reader = deno.stdin.readable.getReader();
    // nothing is ever sent; we only wait for the end
    while (!(await reader.read()).done);
  } finally {
    deno.exit(0);
  }
})();

try {
  await import(entryUrl);
} catch (error) {
  console.error("Failed to load the function:", error);
  deno.exit(1);
}
if (!serving) {
  console.error("The function did not call Deno.serve(handler).");
  deno.exit(noServeExitCode);
}

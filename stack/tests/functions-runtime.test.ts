// The Functions service's runtime behaviour on fixture functions of its own: a private instance of
// the service (same code the stack runs, behind the same gateway) over a temporary functions folder,
// so the tests can declare verify_jwt, a short wall-clock limit, a .env and broken functions
// without touching the project's supabase/ folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, FunctionsHttpError } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { signHs256 } from "../lib/keys.ts";
import { loadSigningKeys } from "../lib/signing-keys.ts";
import { createGateway } from "../server/gateway.ts";
import { defaultDenoDir, denoBinary, functionSettings, stackFunctionsOptions, supabaseFunctionEnv } from "../server/functions/options.ts";
import type { FunctionsOptions } from "../server/functions/options.ts";
import { createFunctionsService, type FunctionsService } from "../server/functions/service.ts";
import { anonKey, config, serviceRoleKey } from "./helpers/stack.ts";

// Deno workers boot and reload here on a shared machine: generous ceilings, never a speed test
vi.setConfig({ testTimeout: 120_000 });

const functionsDir = mkdtempSync(path.join(tmpdir(), "fx-functions-"));
// the edge runtime's per-request wall-clock limit, short so the 546 test is quick, yet long enough
// that a busy machine's slow answer (or a slow test process) never meets it by accident
const wallClockMs = 5000;
const logs: string[] = [];

/** config.toml's [functions.*] as this suite declares them. */
const functionsConfig = {
  functions: {
    echo: { verify_jwt: false },
    hang: { verify_jwt: false },
    crash: { verify_jwt: false },
    thrower: { verify_jwt: false },
    "custom-error": { verify_jwt: false },
    "strict-json": { verify_jwt: false },
    "no-serve": { verify_jwt: false },
    broken: { verify_jwt: false },
    shared: { verify_jwt: false },
    stream: { verify_jwt: false },
    disabled: { enabled: false, verify_jwt: false },
    // entrypoints are relative to the supabase/ folder, here the functions folder's parent
    renamed: { verify_jwt: false, entrypoint: `./${path.basename(functionsDir)}/renamed-entry/main.ts` },
    // guarded: not listed, so verify_jwt is on by default
  },
};

function writeFunction(name: string, source: string, file = "index.ts"): void {
  mkdirSync(path.join(functionsDir, name), { recursive: true });
  writeFileSync(path.join(functionsDir, name, file), source);
}

const fixtures: Record<string, string> = {
  echo: `
    import { greeting } from "../_shared/greeting.ts";
    Deno.serve(async (req) => {
      const url = new URL(req.url);
      const env = Object.fromEntries(["SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_DB_URL",
        "SUPABASE_PUBLISHABLE_KEYS", "FX_PLAIN", "FX_QUOTED", "FX_EXPORTED", "SUPABASE_FX_RESERVED", "HOME", "STACK_FUNCTION_ENTRY_URL"]
        .map((name) => [name, Deno.env.get(name) ?? null]));
      return Response.json({
        method: req.method, path: url.pathname, query: url.search, origin: url.origin,
        authorization: req.headers.get("authorization"), contentType: req.headers.get("content-type"),
        body: await req.text(), env, pid: Deno.pid, greeting,
      }, { headers: { "x-fixture": "echo" } });
    });`,
  guarded: `Deno.serve((req) => Response.json({ authorization: req.headers.get("authorization") }));`,
  hang: `Deno.serve(async (req) => {
      const url = new URL(req.url);
      if (url.searchParams.has("pid")) return Response.json({ pid: Deno.pid });
      // ?arrived=<file>: say (by creating the file) that the request is inside the function
      if (url.searchParams.has("arrived")) await Deno.writeTextFile(url.searchParams.get("arrived")!, String(Deno.pid));
      await new Promise(() => {});
      return new Response("never");
    });`,
  crash: `Deno.serve(async (req) => {
      if (new URL(req.url).searchParams.has("pid")) return Response.json({ pid: Deno.pid });
      setTimeout(() => { throw new Error("crash outside the handler"); }, 10);
      await new Promise(() => {});
      return new Response("never");
    });`,
  thrower: `Deno.serve(() => { throw new Error("boom"); });`,
  "custom-error": `Deno.serve({ onError: (error) => new Response("handled: " + (error as Error).message, { status: 418 }) }, () => { throw new Error("teapot"); });`,
  "strict-json": `Deno.serve(async (req) => Response.json({ received: await req.json() }));`,
  "no-serve": `console.log("loaded, but serving nothing");`,
  broken: `Deno.serve(() => new Response("ok"); // syntax error`,
  shared: `import { greeting } from "../_shared/greeting.ts"; Deno.serve(() => new Response(greeting));`,
  stream: `Deno.serve((req) => new Response(req.body, { headers: { "content-type": "application/octet-stream" } }));`,
  disabled: `Deno.serve(() => new Response("should not be served"));`,
};

/** A private Functions service over the fixture folder, behind the stack's own gateway. */
async function serve(overrides: Partial<FunctionsOptions>) {
  const service = createFunctionsService({
    functionsDir,
    settings: (name) => functionSettings(functionsConfig, functionsDir, name),
    baseEnv: () => supabaseFunctionEnv(config),
    denoBinary,
    denoDir: defaultDenoDir,
    wallClockMs,
    bootTimeoutMs: 60_000,
    idleMs: 600_000,
    policy: "per_worker",
    enabled: true,
    watch: true,
    log: (line) => logs.push(line),
    ...overrides,
  });
  const gateway = createGateway([{ prefix: "/functions/v1", open: () => true, handler: (req, res, ctx) => service.handle(req, res, ctx) }]);
  const server = http.createServer(gateway);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { service, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(instance: { service: FunctionsService; server: http.Server }) {
  instance.service.close();
  instance.server.closeAllConnections();
  await new Promise((resolve) => instance.server.close(resolve));
}

let service: FunctionsService;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  writeFileSync(path.join(functionsDir, "deno.json"), JSON.stringify({ nodeModulesDir: "auto" }));
  writeFileSync(
    path.join(functionsDir, ".env"),
    [
      "# fixture secrets",
      "FX_PLAIN=plain value",
      'FX_QUOTED="line1\\nline2"',
      "export FX_EXPORTED='kept # not a comment'",
      "SUPABASE_FX_RESERVED=nope",
      "",
    ].join("\n"),
  );
  mkdirSync(path.join(functionsDir, "_shared"));
  writeFileSync(path.join(functionsDir, "_shared", "greeting.ts"), `export const greeting = "hello v1";\n`);
  for (const [name, source] of Object.entries(fixtures)) writeFunction(name, source);
  writeFunction("renamed-entry", `Deno.serve(() => new Response("from a custom entrypoint"));`, "main.ts");
  writeFunction("renamed", `Deno.serve(() => new Response("the default index.ts must not be used"));`);

  ({ service, server, baseUrl } = await serve({}));
});

afterAll(async () => {
  if (service) await stop({ service, server });
  rmSync(functionsDir, { recursive: true, force: true });
});

const client = (key = anonKey) => createClient(baseUrl, key, { auth: { persistSession: false, autoRefreshToken: false } });
const call = (name: string, init: RequestInit = {}) => fetch(`${baseUrl}/functions/v1/${name}`, init);

async function errorOf(result: { error: unknown }) {
  expect(result.error).toBeInstanceOf(FunctionsHttpError);
  const response = (result.error as FunctionsHttpError).context as Response;
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("serving", () => {
  test("functions-js invoke reaches the function with method, path, query, body and the caller's JWT", async () => {
    const { data, error } = await client().functions.invoke("echo", { body: { name: "Ada" } });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: "POST",
      path: "/echo",
      query: "",
      origin: baseUrl,
      authorization: `Bearer ${anonKey}`,
      contentType: "application/json",
      body: JSON.stringify({ name: "Ada" }),
      greeting: "hello v1",
    });

    const response = await call("echo/nested/path?x=1&y=two", { method: "PATCH", body: "raw text" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-fixture")).toBe("echo");
    expect(await response.json()).toMatchObject({
      method: "PATCH",
      path: "/echo/nested/path",
      query: "?x=1&y=two",
      body: "raw text",
      authorization: null,
    });
  });

  test("functions see Supabase's variables and supabase/functions/.env, never SUPABASE_* overrides or the host's env", async () => {
    const { data } = await client().functions.invoke<{ env: Record<string, string | null> }>("echo", { body: {} });
    expect(data?.env).toEqual({
      SUPABASE_URL: `http://127.0.0.1:${config.apiPort}`,
      SUPABASE_ANON_KEY: anonKey,
      SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
      SUPABASE_DB_URL: `postgresql://postgres:postgres@127.0.0.1:${config.dbPort}/postgres`,
      SUPABASE_PUBLISHABLE_KEYS: expect.stringContaining("sb_publishable_"),
      FX_PLAIN: "plain value",
      FX_QUOTED: "line1\nline2",
      FX_EXPORTED: "kept # not a comment",
      SUPABASE_FX_RESERVED: null,
      HOME: null,
      STACK_FUNCTION_ENTRY_URL: null,
    });
  });

  test("an entrypoint from [functions.<name>] is served instead of index.ts", async () => {
    const response = await call("renamed");
    expect(await response.text()).toBe("from a custom entrypoint");
  });

  test("request and response bodies stream through unchanged (5 MB)", async () => {
    const payload = Buffer.alloc(5 * 1024 * 1024, 7);
    payload.write("start");
    const response = await call("stream", { method: "POST", body: payload, headers: { "content-type": "application/octet-stream" } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(payload)).toBe(true);
  });

  test("unknown, disabled and non-function folders answer 404 Function not found", async () => {
    for (const name of ["missing", "disabled", "_shared", "", "..%2Fecho", "%E0%A4%A"]) {
      const response = await call(name);
      expect(response.status, name).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain");
      expect(await response.text()).toBe("Function not found");
    }
    expect(service.list().sort()).toEqual(
      Object.keys(fixtures)
        .filter((name) => name !== "disabled")
        .concat("renamed")
        .sort(),
    );
  });
});

describe("verify_jwt", () => {
  const user = signHs256({
    sub: "6b1c8e40-0000-4000-8000-000000000001",
    role: "authenticated",
    aud: "authenticated",
    email: "fx@example.test",
    exp: Math.floor(Date.now() / 1000) + 3600,
  });

  test("on by default: anon key, a user's JWT and the service role pass, and the function receives the JWT", async () => {
    for (const token of [anonKey, serviceRoleKey, user]) {
      const response = await call("guarded", { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ authorization: `Bearer ${token}` });
    }
    const { data, error } = await createClient(baseUrl, anonKey, { accessToken: async () => user }).functions.invoke("guarded");
    expect(error).toBeNull();
    expect(data).toEqual({ authorization: `Bearer ${user}` });
  });

  test("sb_ keys are swapped for their role's JWT, as Supabase's gateway does", async () => {
    // With signing keys (this project), the role JWTs are signed by the first key, as `supabase start` signs its keys.
    const kid = loadSigningKeys(config)[0].kid;
    const roleOf = (authorization: string) => {
      const [head, body] = authorization.replace(/^Bearer /, "").split(".");
      return {
        header: JSON.parse(Buffer.from(head, "base64url").toString()) as unknown,
        claims: JSON.parse(Buffer.from(body, "base64url").toString()) as unknown,
      };
    };
    const { data } = await client("sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH").functions.invoke("guarded");
    expect(roleOf((data as { authorization: string }).authorization)).toMatchObject({
      header: { alg: "ES256", kid },
      claims: { iss: "supabase-demo", role: "anon" },
    });
    const apikeyOnly = await call("guarded", { headers: { apikey: "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz" } });
    expect(roleOf(((await apikeyOnly.json()) as { authorization: string }).authorization)).toMatchObject({
      header: { alg: "ES256", kid },
      claims: { iss: "supabase-demo", role: "service_role" },
    });
    // the legacy JWT keys stand for themselves
    const legacy = await call("guarded", { headers: { apikey: anonKey, Authorization: `Bearer ${serviceRoleKey}` } });
    expect(await legacy.json()).toEqual({ authorization: `Bearer ${serviceRoleKey}` });
  });

  test("missing, malformed, forged and expired tokens get 401 with the edge runtime's message", async () => {
    const expired = signHs256({ sub: "x", role: "authenticated", exp: Math.floor(Date.now() / 1000) - 10 });
    const forged = signHs256({ role: "service_role" }, "not-the-project-secret-not-the-project-secret");
    const cases: [Record<string, string>, string][] = [
      [{}, "Error: Missing authorization header"],
      [{ Authorization: `Basic ${anonKey}` }, "Error: Auth header is not 'Bearer {token}'"],
      [{ Authorization: "Bearer not-a-jwt" }, "Invalid JWT"],
      [{ Authorization: `Bearer ${forged}` }, "Invalid JWT"],
      [{ Authorization: `Bearer ${expired}` }, "Invalid JWT"],
    ];
    for (const [headers, msg] of cases) {
      const response = await call("guarded", { method: "POST", headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ msg });
    }
    const result = await createClient(baseUrl, anonKey, { accessToken: async () => expired }).functions.invoke("guarded");
    expect(await errorOf(result)).toEqual({ status: 401, contentType: "application/json", body: JSON.stringify({ msg: "Invalid JWT" }) });
  });

  test("off: requests without any key reach the function", async () => {
    const response = await call("echo", { method: "POST" });
    expect(response.status).toBe(200);
  });

  test("CORS preflights reach the function without a JWT and carry only the function's headers", async () => {
    const preflight = await call("guarded", {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:3000", "Access-Control-Request-Method": "POST" },
    });
    // The fixture does not answer CORS itself, so the browser would see no Allow-Origin, as with `supabase start`.
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
  });
});

describe("failures", () => {
  test("a function that throws answers 500 WORKER_ERROR and keeps serving", async () => {
    for (let i = 0; i < 2; i++) {
      const result = await client().functions.invoke("thrower");
      expect(await errorOf(result)).toEqual({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" }),
      });
    }
  });

  test("a function's own onError decides the answer to its throws", async () => {
    const response = await call("custom-error");
    expect(response.status).toBe(418);
    expect(await response.text()).toBe("handled: teapot");
  });

  test("a body that is not JSON, read with req.json(), is a 500 WORKER_ERROR, not a crash", async () => {
    const bad = await client().functions.invoke("strict-json", { body: "this is not json" });
    expect((await errorOf(bad)).status).toBe(500);
    const good = await client().functions.invoke("strict-json", { body: { ok: true } });
    expect(good.data).toEqual({ received: { ok: true } });
  });

  test("a module that fails to load, or never calls Deno.serve, answers 503 BOOT_ERROR", async () => {
    for (const name of ["broken", "no-serve"]) {
      const response = await call(name);
      expect(response.status, name).toBe(503);
      expect(await response.json()).toEqual({ code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" });
    }
    expect(logs.some((line) => line.includes("did not call Deno.serve"))).toBe(true);
  });

  test("a request beyond the wall-clock limit gets 546 WORKER_LIMIT; the worker is replaced", async () => {
    const before = (await (await call("hang?pid")).json()) as { pid: number };
    const response = await call("hang");
    expect(response.status).toBe(546);
    expect(await response.json()).toEqual({
      code: "WORKER_LIMIT",
      message: "Worker failed to respond due to a resource limit (please check logs)",
    });
    const after = (await (await call("hang?pid")).json()) as { pid: number };
    expect(after.pid).not.toBe(before.pid);
    expect(() => process.kill(before.pid, 0)).toThrow();
  });

  test("a worker killed mid-request: the caller gets 500 WORKER_ERROR and the next call starts a fresh one", async () => {
    const { pid } = (await (await call("hang?pid")).json()) as { pid: number };
    const arrived = path.join(tmpdir(), `fx-functions-hang-${process.pid}-${Date.now()}`);
    const pending = call(`hang?arrived=${encodeURIComponent(arrived)}`);
    // kill only once the request is inside this very worker, not after a fixed sleep
    await expect.poll(() => existsSync(arrived) && readFileSync(arrived, "utf8"), { timeout: 60_000, interval: 20 }).toBe(String(pid));
    rmSync(arrived, { force: true });
    process.kill(pid, "SIGKILL");
    const response = await pending;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" });
    const next = (await (await call("hang?pid")).json()) as { pid: number };
    expect(next.pid).not.toBe(pid);
  });

  test("an uncaught error outside the handler kills the worker: 500 for the request, a fresh worker next", async () => {
    const { pid } = (await (await call("crash?pid")).json()) as { pid: number };
    const response = await call("crash");
    expect(response.status).toBe(500);
    expect(((await response.json()) as { code: string }).code).toBe("WORKER_ERROR");
    const next = (await (await call("crash?pid")).json()) as { pid: number };
    expect(next.pid).not.toBe(pid);
  });

  test("a caller that goes away mid-request does not disturb the worker", async () => {
    const controller = new AbortController();
    const pending = call("hang", { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(pending).rejects.toThrow();
    const response = await call("echo", { method: "POST", body: "still fine" });
    expect(((await response.json()) as { body: string }).body).toBe("still fine");
  });
});

describe("reload on change", () => {
  test("editing a function serves the new code; fixing a broken one makes it boot", async () => {
    writeFunction("broken", `Deno.serve(() => new Response("fixed"));`);
    const fixed = await eventually(
      async () => (await call("broken")).text(),
      (text) => text === "fixed",
    );
    expect(fixed).toBe("fixed");
  });

  test("editing _shared reloads the functions that import it", async () => {
    expect(await (await call("shared")).text()).toBe("hello v1");
    writeFileSync(path.join(functionsDir, "_shared", "greeting.ts"), `export const greeting = "hello v2";\n`);
    expect(
      await eventually(
        async () => (await call("shared")).text(),
        (text) => text === "hello v2",
      ),
    ).toBe("hello v2");
  });

  test("a new function folder is served without a restart", async () => {
    writeFunction("added-later", `Deno.serve(() => new Response("new"));`);
    const response = await call("added-later", { headers: { Authorization: `Bearer ${anonKey}` } });
    expect(await response.text()).toBe("new");
  });
});

describe("[edge_runtime]", () => {
  test("config.toml's policy, enabled and secrets (with env() references) are what the stack reads", () => {
    process.env.FX_FUNCTIONS_SECRET_SOURCE = "from the environment";
    const raw = {
      edge_runtime: { policy: "oneshot", enabled: false, secrets: { FX_LITERAL: "literal", FX_REF: "env(FX_FUNCTIONS_SECRET_SOURCE)" } },
    };
    const options = stackFunctionsOptions({ ...config, raw });
    expect({ policy: options.policy, enabled: options.enabled }).toEqual({ policy: "oneshot", enabled: false });
    expect(options.baseEnv()).toMatchObject({ FX_LITERAL: "literal", FX_REF: "from the environment", SUPABASE_ANON_KEY: anonKey });
    const project = stackFunctionsOptions(config);
    expect({ policy: project.policy, enabled: project.enabled }).toEqual({ policy: "per_worker", enabled: true });
    expect(project.settings("hello")).toMatchObject({ enabled: true, verifyJwt: true });
    delete process.env.FX_FUNCTIONS_SECRET_SOURCE;
  });

  test("policy = oneshot starts a fresh worker for every request", async () => {
    const oneshot = await serve({ policy: "oneshot", watch: false });
    try {
      const pids = new Set<number>();
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${oneshot.baseUrl}/functions/v1/echo`, { method: "POST" });
        pids.add(((await response.json()) as { pid: number }).pid);
      }
      expect(pids.size).toBe(3);
    } finally {
      await stop(oneshot);
    }
  });

  test("enabled = false: the gateway has no route for /functions/v1", async () => {
    const disabled = await serve({ enabled: false, watch: false });
    try {
      const response = await fetch(`${disabled.baseUrl}/functions/v1/echo`, { method: "POST" });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "no Route matched with those values" });
    } finally {
      await stop(disabled);
    }
  });
});

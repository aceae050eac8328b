// Private in-process Auth servers on the stack's database, each built from the project's
// config.toml with some [auth] settings changed: a fixture project per test, without touching the
// running stack's configuration.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { afterAll } from "vitest";
import { createAuthRoute } from "../server/auth/index.ts";
import { createServerContext } from "../server/context.ts";
import { createGateway } from "../server/gateway.ts";
import { Inbox } from "../server/inbox/store.ts";
import { config } from "./helpers/stack.ts";
import { anonKey, memoryStorage } from "./auth-helpers.ts";

const servers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

function merge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value && typeof value === "object" && !Array.isArray(value))
      merge((target[key] ??= {}) as Record<string, unknown>, value as Record<string, unknown>);
    else target[key] = value;
  }
}

/**
 * An Auth server whose [auth] is config.toml's with `auth` merged in. `env` is set while the
 * server reads its settings (e.g. STACK_AUTH_RATE_LIMIT_HEADER), then restored.
 */
export async function authServerWith(auth: Record<string, unknown>, env: Record<string, string> = {}) {
  const raw = structuredClone(config.raw) as Record<string, Record<string, unknown>>;
  merge(raw.auth, auth);
  const ctx = createServerContext({ ...config, raw });
  const inbox = new Inbox();
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let route;
  try {
    route = await createAuthRoute(ctx, inbox);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const server = http.createServer(createGateway([route]));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ctx.adminPool.end();
    await ctx.authenticatorPool.end();
  });
  return {
    url,
    inbox,
    /** A supabase-js client of this server that keeps its own session (as a browser tab would). */
    supabase: (headers: Record<string, string> = {}) =>
      createClient(url, anonKey, {
        auth: { persistSession: true, autoRefreshToken: false, detectSessionInUrl: false, storage: memoryStorage() },
        global: { headers },
      }),
    /** A raw request below /auth/v1, with the 2024-01-01 API version unless told otherwise. */
    async fetch(path: string, init: RequestInit & { bearer?: string; legacy?: boolean } = {}) {
      const headers = new Headers(init.headers);
      if (!init.legacy) headers.set("X-Supabase-Api-Version", "2024-01-01");
      if (init.bearer) headers.set("Authorization", `Bearer ${init.bearer}`);
      if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
      const response = await fetch(`${url}/auth/v1${path}`, { ...init, headers, redirect: "manual" });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
    },
  };
}

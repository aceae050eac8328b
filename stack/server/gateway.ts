import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { anonKey, publishableKey, secretKey, serviceRoleKey } from "../lib/keys.ts";
import { roleJwt } from "./jwt.ts";

/**
 * The API gateway in front of the stack's services, as Kong fronts them in `supabase start`:
 * checks the `apikey`, answers CORS, swaps an opaque `sb_…` key for the role's JWT, and hands
 * the request to the service that owns the path prefix.
 */
export interface GatewayContext {
  /** Role of the apikey the request presented; undefined on open routes called without a key. */
  apikeyRole?: "anon" | "service_role";
  /** The bearer token the service should act with: the caller's Authorization, else the apikey's JWT. */
  bearer?: string;
  /** Path below the service prefix, with the query string (e.g. `/token?grant_type=password`). */
  path: string;
  url: URL;
}

export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, ctx: GatewayContext) => Promise<void> | void;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, ctx: GatewayContext) => void;

export interface ServiceRoute {
  prefix: string;
  handler: ServiceHandler;
  /** Paths below the prefix that Supabase serves without an apikey (e.g. email-link verification). */
  open?: (path: string) => boolean;
  /** WebSocket upgrades below the prefix (Realtime). */
  upgrade?: UpgradeHandler;
  /** Called when the API server shuts down. */
  close?: () => Promise<void> | void;
}

interface KeyRole {
  role: "anon" | "service_role";
  jwt: string;
}

// A Map, not an object literal: a presented key such as `__proto__` must not find anything. The
// legacy JWT keys stand for themselves; an opaque `sb_…` key for its role's JWT, which with signing
// keys is signed by the project's signing key (as `supabase start` generates it), else the legacy key.
let keyRolesMap: Map<string, KeyRole> | undefined;
function keyRoles(): Map<string, KeyRole> {
  if (keyRolesMap) return keyRolesMap;
  const anon = roleJwt("anon", anonKey);
  const service = roleJwt("service_role", serviceRoleKey);
  keyRolesMap = new Map<string, KeyRole>([
    [anonKey, { role: "anon", jwt: anonKey }],
    [publishableKey, { role: "anon", jwt: anon }],
    [anon, { role: "anon", jwt: anon }],
    [serviceRoleKey, { role: "service_role", jwt: serviceRoleKey }],
    [secretKey, { role: "service_role", jwt: service }],
    [service, { role: "service_role", jwt: service }],
  ]);
  return keyRolesMap;
}

/** The JWT a presented API key stands for (a legacy JWT key, an `sb_…` key's role JWT); undefined for any other string. */
export function apiKeyJwt(presented: string): string | undefined {
  return keyRoles().get(presented)?.jwt;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(payload), ...headers });
  res.end(payload);
}

function applyCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader(
    "Access-Control-Expose-Headers",
    "Content-Range, Content-Location, Preference-Applied, X-Supabase-Api-Version, Location, Range-Unit, X-Total-Count, Link",
  );
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS, TRACE, CONNECT");
    res.setHeader(
      "Access-Control-Allow-Headers",
      String(req.headers["access-control-request-headers"] ?? "authorization, x-client-info, apikey, content-type"),
    );
    res.setHeader("Access-Control-Max-Age", "3600");
  }
}

/**
 * The request URL. The request target is always taken as a path (as Kong/nginx do), so a target
 * such as `//%%` is the path `//%%`, not a malformed authority that would throw.
 */
function requestUrl(target: string | undefined): URL | undefined {
  const raw = target ?? "/";
  try {
    return new URL(`http://127.0.0.1${raw.startsWith("/") ? raw : `/${raw}`}`);
  } catch {
    return undefined;
  }
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match?.[1]?.trim();
}

function resolveKey(req: IncomingMessage, url: URL) {
  const presented = String(req.headers.apikey ?? url.searchParams.get("apikey") ?? "");
  return { presented, key: keyRoles().get(presented) };
}

/** Routes a WebSocket upgrade to the service that owns the prefix, after the same apikey check. */
export function createUpgradeRouter(routes: ServiceRoute[]) {
  return function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = requestUrl(req.url);
    if (!url) {
      socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    const route = routes.find((r) => r.upgrade && url.pathname.startsWith(`${r.prefix}/`));
    const { presented, key } = resolveKey(req, url);
    if (!route?.upgrade || (!key && !route.open?.(url.pathname.slice(route.prefix.length)))) {
      const status = !route ? "404 Not Found" : "401 Unauthorized";
      const body = JSON.stringify({
        message: !route
          ? "no Route matched with those values"
          : presented
            ? "Invalid authentication credentials"
            : "No API key found in request",
      });
      socket.end(
        `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    route.upgrade(req, socket, head, {
      apikeyRole: key?.role,
      bearer: key?.jwt,
      path: url.pathname.slice(route.prefix.length) + url.search,
      url,
    });
  };
}

export function createGateway(routes: ServiceRoute[]) {
  return async function gateway(req: IncomingMessage, res: ServerResponse): Promise<void> {
    applyCors(req, res);
    const url = requestUrl(req.url);
    if (!url) return sendJson(res, 400, { message: "Bad Request" });
    const route = routes.find((r) => url.pathname === r.prefix || url.pathname.startsWith(`${r.prefix}/`));
    if (!route) return sendJson(res, 404, { message: "no Route matched with those values" });
    const path = url.pathname.slice(route.prefix.length) || "/";
    if (req.method === "OPTIONS" && !route.open?.(path)) {
      res.writeHead(200, { "Content-Length": 0 });
      return void res.end();
    }
    const { presented, key } = resolveKey(req, url);
    if (!key && !route.open?.(path)) {
      if (!presented) return sendJson(res, 401, { message: "No API key found in request" });
      return sendJson(res, 401, { message: "Invalid authentication credentials" });
    }
    const callerBearer = bearerOf(req.headers.authorization);
    const bearer = (callerBearer && keyRoles().get(callerBearer)?.jwt) || (callerBearer ?? key?.jwt);
    try {
      await route.handler(req, res, { apikeyRole: key?.role, bearer, path: path + url.search, url });
    } catch (error) {
      console.error(`[gateway] ${req.method} ${url.pathname}:`, error);
      if (!res.headersSent) sendJson(res, 500, { message: "An unexpected error occurred" });
      else res.end();
    }
  };
}

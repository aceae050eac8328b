import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import pg from "pg";
import { WebSocketServer } from "ws";
import { dbPassword } from "../../lib/postgres.ts";
import type { ServerContext } from "../context.ts";
import { type ServiceRoute, sendJson } from "../gateway.ts";
import { createBroadcastApi } from "./broadcastApi.ts";
import { createBroadcastFeed } from "./broadcast/feed.ts";
import { startMessagesJanitor } from "./broadcast/janitor.ts";
import type { Channel, RealtimeServices } from "./channel.ts";
import { createChangesFeed } from "./changes/feed.ts";
import { Connection } from "./connection.ts";
import type { Vsn } from "./frames.ts";
import { TopicHub } from "./hub.ts";
import { PresenceStore } from "./presence.ts";

const supportedVsn = new Set<string>(["1.0.0", "2.0.0"]);

function refuseUpgrade(socket: Duplex, status: string, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The Realtime service at /realtime/v1: the Phoenix-channel WebSocket realtime-js connects to
 * (/websocket), broadcast, presence and postgres_changes, plus the REST broadcast API.
 */
export async function createRealtimeRoute(ctx: ServerContext): Promise<ServiceRoute> {
  const section = ctx.config.raw.realtime as { enabled?: unknown } | undefined;
  if (section?.enabled === false) {
    // [realtime] enabled = false: like `supabase start` without the realtime container.
    const notFound = "no Route matched with those values";
    return {
      prefix: "/realtime/v1",
      handler: (_req, res) => sendJson(res, 404, { message: notFound }),
      upgrade: (_req, socket) => refuseUpgrade(socket, "404 Not Found", notFound),
    };
  }
  const log = (line: string) => console.log(line);
  // Realtime's own connections, apart from the pools the HTTP services share: private-channel
  // authorization, subscription checks and the per-change RLS checks.
  const adminPool = new pg.Pool({
    host: "127.0.0.1",
    port: ctx.config.dbPort,
    database: "postgres",
    user: "postgres",
    password: dbPassword,
    max: 4,
    connectionTimeoutMillis: 5000,
  });
  adminPool.on("error", (error) => log(`[realtime] db pool: ${error.message}`));
  const hub = new TopicHub<Channel>();
  const changes = createChangesFeed(ctx.config, log);
  const broadcasts = createBroadcastFeed(ctx.config, hub, log);
  const janitor = startMessagesJanitor(ctx.config, log);
  const services: RealtimeServices = { adminPool, hub, presence: new PresenceStore(), changes, broadcasts, log };
  const broadcastApi = createBroadcastApi(adminPool, hub, log);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 3 * 1024 * 1024 });
  const connections = new Set<Connection>();
  // Like Phoenix's websocket timeout: a socket silent for a minute (no heartbeat) is closed.
  const idleSweep = setInterval(() => {
    for (const connection of connections) connection.closeIfIdle(60_000);
  }, 15_000);
  idleSweep.unref();

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, gateway: { bearer?: string; url: URL; path: string }): void {
    const pathname = gateway.path.split("?")[0].replace(/\/+$/, "");
    if (pathname !== "/websocket") return refuseUpgrade(socket, "404 Not Found", "no Route matched with those values");
    const vsn = gateway.url.searchParams.get("vsn") ?? "1.0.0";
    if (!supportedVsn.has(vsn)) {
      log(`[realtime] refusing vsn ${vsn}: supported are ~> 1.0.0 and ~> 2.0.0`);
      return refuseUpgrade(
        socket,
        "403 Forbidden",
        `The client's requested transport version "${vsn}" does not match server's version requirements of ~> 2.0.0 or ~> 1.0.0`,
      );
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, vsn as Vsn, gateway.bearer ?? "", services);
      connections.add(connection);
      ws.on("close", () => connections.delete(connection));
    });
  }

  return {
    prefix: "/realtime/v1",
    upgrade,
    handler: async (req, res, gateway) => {
      const pathname = gateway.path.split("?")[0];
      if (pathname === "/api/broadcast" || pathname.startsWith("/api/broadcast/"))
        return await broadcastApi(req, res, pathname, gateway.bearer);
      if (pathname === "/api/ping" && req.method === "GET") return sendJson(res, 200, { message: "Success" });
      sendJson(res, 404, { message: "no Route matched with those values" });
    },
    close: async () => {
      clearInterval(idleSweep);
      for (const connection of connections) connection.close();
      wss.close();
      janitor.stop();
      await changes.close();
      await broadcasts.close();
      await adminPool.end().catch(() => undefined);
    },
  };
}

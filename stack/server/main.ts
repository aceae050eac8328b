// The stack's API server: the gateway on [api].port and the services behind it.
// Started detached by `npm run stack -- start`; logs to .stack/logs/api.log.
import http from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { logsDir } from "../lib/paths.ts";
import { watchPostgres } from "../lib/watchdog.ts";
import { createAccessLog } from "./access-log.ts";
import { createServerContext } from "./context.ts";
import { createGateway, createUpgradeRouter } from "./gateway.ts";
import { keyring } from "./jwt.ts";
import { createInboxHandler } from "./inbox/api.ts";
import { createSmtpServer } from "./inbox/smtp.ts";
import { inbox } from "./inbox/store.ts";
import { serviceRoutes } from "./routes.ts";

const config = loadConfig();
// A missing or broken signing-keys file stops the start here, with the file and key named.
keyring();
const ctx = createServerContext(config);
const routes = await serviceRoutes(ctx);
const gateway = createGateway(routes);
const accessLog = createAccessLog(path.join(logsDir, "access.log"));
const server = http.createServer((req, res) => {
  accessLog.log(req, res);
  void gateway(req, res);
});
server.on("upgrade", createUpgradeRouter(routes));
server.keepAliveTimeout = 65_000;

// A database that restarts under us must not take the API down: pools reconnect on next use.
ctx.authenticatorPool.on("error", (error) => console.error("[db] authenticator pool:", error.message));
ctx.adminPool.on("error", (error) => console.error("[db] admin pool:", error.message));

// Postgres killed or crashed under a running stack: restart it (or stop the API with a clear message).
const postgresWatch = watchPostgres(
  config,
  (line) => console.log(line),
  () => shutdown(),
);

server.listen(config.apiPort, "127.0.0.1", () => console.log(`[api] listening on http://127.0.0.1:${config.apiPort}`));

// The Mailpit-compatible inbox where the Auth service's emails land ([local_smtp].port).
const inboxServer = http.createServer(createInboxHandler(inbox));
inboxServer.listen(config.inboxPort, "127.0.0.1", () => console.log(`[inbox] listening on http://127.0.0.1:${config.inboxPort}`));

// Its SMTP side ([local_smtp].smtp_port): what an app or a function sends lands in the same inbox.
const smtpServer = createSmtpServer(inbox, { onMessage: (line) => console.log(`[smtp] ${line}`) });
const smtpConnections = new Set<Socket>();
smtpServer.on("connection", (socket) => {
  smtpConnections.add(socket);
  socket.on("close", () => smtpConnections.delete(socket));
});
smtpServer.listen(config.smtpPort, "127.0.0.1", () => console.log(`[smtp] listening on smtp://127.0.0.1:${config.smtpPort}`));

function shutdown() {
  postgresWatch.stop();
  accessLog.close();
  server.close();
  server.closeAllConnections();
  inboxServer.close();
  inboxServer.closeAllConnections();
  smtpServer.close();
  for (const socket of smtpConnections) socket.destroy();
  void Promise.allSettled(routes.map((route) => route.close?.()))
    .then(() => Promise.allSettled([ctx.authenticatorPool.end(), ctx.adminPool.end()]))
    .then(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

// One service's bug must not take every service down: log it and keep serving, as the separate
// containers of `supabase start` would.
process.on("unhandledRejection", (reason) => console.error("[api] unhandled rejection:", reason));
process.on("uncaughtException", (error) => console.error("[api] uncaught exception:", error));

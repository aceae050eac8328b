import type { ServiceRoute } from "./gateway.ts";
import type { ServerContext } from "./context.ts";
import { createAuthRoute } from "./auth/index.ts";
import { createChainRoute } from "./chain/index.ts";
import { createFunctionsRoute } from "./functions/index.ts";
import { createRealtimeRoute } from "./realtime/index.ts";
import { createRestRoute } from "./rest/index.ts";
import { createStorageRoute } from "./storage/index.ts";

/**
 * The services behind the gateway, by path prefix. Each part of the stack lives in its own folder
 * and exports one factory, which may do async setup (e.g. syncing buckets from config.toml).
 */
export async function serviceRoutes(ctx: ServerContext): Promise<ServiceRoute[]> {
  return await Promise.all([
    createAuthRoute(ctx),
    createRestRoute(ctx),
    createStorageRoute(ctx),
    createRealtimeRoute(ctx),
    createFunctionsRoute(ctx),
    createChainRoute(),
  ]);
}

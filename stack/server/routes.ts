import type { ServiceRoute } from "./gateway.ts";
import type { ServerContext } from "./context.ts";

/**
 * The services behind the gateway, by path prefix. Each part of the stack registers itself here
 * with a factory that may do async setup (e.g. syncing buckets from config.toml).
 */
export async function serviceRoutes(_ctx: ServerContext): Promise<ServiceRoute[]> {
  return [];
}

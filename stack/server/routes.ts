import type { ServiceRoute } from "./gateway.ts";
import type { ServerContext } from "./context.ts";

/** The services behind the gateway, by path prefix. Each part of the stack registers itself here. */
export function serviceRoutes(_ctx: ServerContext): ServiceRoute[] {
  return [];
}

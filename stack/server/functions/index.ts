import type { ServerContext } from "../context.ts";
import type { ServiceRoute } from "../gateway.ts";
import { functionsChainEnv } from "../../lib/chain.ts";
import { stackFunctionsOptions } from "./options.ts";
import { createFunctionsService } from "./service.ts";

/**
 * Edge Functions at /functions/v1/<name>: each supabase/functions/<name>/index.ts runs in its own
 * Deno process. Like `supabase start`, the gateway asks no apikey here and lets preflights
 * through: the function's verify_jwt setting and its own code decide.
 */
export async function createFunctionsRoute(ctx: ServerContext): Promise<ServiceRoute> {
  const service = createFunctionsService(stackFunctionsOptions(ctx.config, await functionsChainEnv(ctx.config)));
  return {
    prefix: "/functions/v1",
    open: () => true,
    handler: (req, res, gatewayCtx) => service.handle(req, res, gatewayCtx),
    close: () => service.close(),
  };
}

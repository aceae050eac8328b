import type { ServerContext } from "../context.ts";
import { type ServiceRoute, sendJson } from "../gateway.ts";

/** The Functions service at /functions/v1. Placeholder until the service lands: answers 404 for every path. */
export async function createFunctionsRoute(_ctx: ServerContext): Promise<ServiceRoute> {
  return {
    prefix: "/functions/v1",
    handler: (_req, res) => sendJson(res, 404, { message: "no Route matched with those values" }),
  };
}

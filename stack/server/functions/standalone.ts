// A second, private Functions endpoint for the project's edge functions, beside the running stack
// and on the same database, with some of the functions' environment replaced — e.g. a chain RPC
// nobody answers, to see how a function behaves in an outage. Exported as @cuepoint/stack/functions.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { StackConfig } from "../../lib/config.ts";
import { createGateway } from "../gateway.ts";
import { functionsChainEnv } from "../../lib/chain.ts";
import { stackFunctionsOptions, supabaseFunctionEnv } from "./options.ts";
import { createFunctionsService } from "./service.ts";

export interface StandaloneFunctions {
  /** Base URL to give supabase-js: `${url}/functions/v1/<name>` reaches a function. */
  url: string;
  close(): Promise<void>;
}

export async function serveFunctions(config: StackConfig, envOverrides: Record<string, string>): Promise<StandaloneFunctions> {
  const chain = await functionsChainEnv(config);
  const service = createFunctionsService({
    ...stackFunctionsOptions(config, chain),
    baseEnv: () => ({ ...supabaseFunctionEnv(config, chain), ...envOverrides }),
    watch: false,
    log: () => undefined,
  });
  const server = http.createServer(
    createGateway([{ prefix: "/functions/v1", open: () => true, handler: (req, res, ctx) => service.handle(req, res, ctx) }]),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      service.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

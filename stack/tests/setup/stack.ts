// Vitest global setup for suites that need the local backend: starts it when it is not running
// and stops it afterwards only if this run started it.
import { loadConfig } from "../../lib/config.ts";
import { stackStatus, startStack, stopStack } from "../../lib/stack.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const config = loadConfig();
  const wasRunning = stackStatus(config).every((service) => service.running);
  if (!wasRunning) await startStack(config, () => undefined);
  return async () => {
    if (!wasRunning) await stopStack();
  };
}

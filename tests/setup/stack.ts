// Vitest global setup for the app's suites that need the local backend: starts it when it is not
// running and stops it afterwards only if this run started it.
import { loadConfig, stackStatus, startStack, stopStack } from "@cuepoint/stack";

export default async function setup(): Promise<() => Promise<void>> {
  const config = loadConfig();
  const wasRunning = stackStatus(config).every((service) => service.running);
  if (!wasRunning) await startStack(config, () => undefined);
  return async () => {
    if (!wasRunning) await stopStack();
  };
}

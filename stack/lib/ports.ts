import net from "node:net";
import { StackError } from "./run.ts";
import { portHolder } from "./system.ts";

/** Resolves true when nothing listens on 127.0.0.1:port. */
export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export async function assertPortFree(port: number, what: string): Promise<void> {
  if (await portIsFree(port)) return;
  const holder = portHolder(port) ?? "another process";
  throw new StackError(
    `Port ${port} (${what}) is already in use by ${holder}.\n` +
      `Stop that process, or change the port in supabase/config.toml, then run \`npm run stack -- start\` again.`,
  );
}

/** Waits until a TCP connection to host:port succeeds, or the deadline passes. */
export async function waitForPort(port: number, timeoutMs: number, host = "127.0.0.1"): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => (socket.destroy(), resolve(false)));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

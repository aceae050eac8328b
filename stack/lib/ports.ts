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

/**
 * How long a port held only by a connection's local end may take to come free. Linux gives outgoing
 * connections local ports from 32768–60999 (ip_local_port_range), which holds Supabase's default
 * ports (54321…): while nothing listens there (during a restart), a busy machine's short-lived
 * connection can take one, and keeps it through TIME_WAIT (60 s) after it closes. That is waited
 * out; a listener is reported at once.
 */
const transientHolderWaitMs = 90_000;

/** `hint` says how to move the service elsewhere (by default: the port in supabase/config.toml). */
export async function assertPortFree(port: number, what: string, hint = "change the port in supabase/config.toml"): Promise<void> {
  if (await portIsFree(port)) return;
  const deadline = Date.now() + transientHolderWaitMs;
  while (portHolder(port) === undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    if (await portIsFree(port)) return;
  }
  const holder =
    portHolder(port) ??
    `an outgoing connection's local end for over ${transientHolderWaitMs / 1000} s (ports 32768–60999 are Linux's ephemeral range)`;
  throw new StackError(
    `Port ${port} (${what}) is already in use by ${holder}.\n` +
      `Stop that process, or ${hint}, then run \`npm run stack -- start\` again.`,
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

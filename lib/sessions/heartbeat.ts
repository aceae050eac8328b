import type { SessionBackend } from "./backend";
import { sessionMessages } from "./rpc";

/** The host's page beats this often (./host-silence.ts takes four missed beats for gone). */
export const heartbeatMs = 2_000;

export interface HeartbeatPorts {
  /** The backend once the page's clients have loaded (null before: that beat is skipped). */
  backend(): Pick<SessionBackend, "heartbeat"> | null;
  /** Fetch the session again: a refused beat means the page's view is stale. */
  resync(): void;
  /** The access token the page's requests would carry now. */
  accessToken(): Promise<string | null>;
  /** The token read after the last beat (kept by the page, whichever session it hosted). */
  token: { current: string | null };
  /** Tells the server the host's place is free, in a request that outlives the page (./rpc.ts: releaseOnExit). */
  releaseOnExit(accessToken: string, sessionId: string): void;
  /** Listens for the page closing (`pagehide`); returns the unlisten. */
  onPageHide(listener: () => void): () => void;
}

/**
 * The host's page: a heartbeat at once and every `heartbeatMs` (a refusal, unless the server was
 * unreachable, asks for a fetch), each followed by reading the access token, so that the page can say
 * the host's place is free while it closes. Returns the stop.
 */
export function beatWhileHosting(sessionId: string, ports: HeartbeatPorts): () => void {
  let stopped = false;
  const beat = async () => {
    const backend = ports.backend();
    if (!backend || stopped) return;
    const answer = await backend.heartbeat(sessionId);
    if (!answer.ok && answer.error !== sessionMessages.unreachable) ports.resync();
    ports.token.current = await ports.accessToken();
  };
  void beat();
  const timer = setInterval(() => void beat(), heartbeatMs);
  const release = () => {
    if (ports.token.current) ports.releaseOnExit(ports.token.current, sessionId);
  };
  const unlisten = ports.onPageHide(release);
  return () => {
    stopped = true;
    clearInterval(timer);
    unlisten();
  };
}

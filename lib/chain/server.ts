// Server-only thirdweb client, from THIRDWEB_SECRET_KEY (and NEXT_PUBLIC_THIRDWEB_CLIENT_ID if set).
import { createHash } from "node:crypto";
import { createThirdwebClient, type ThirdwebClient } from "thirdweb";
import { type ChainCredentials, resolveChainCredentials } from "./credentials";

/** thirdweb derives a clientId as the first 32 hex characters of sha256(secretKey). */
export function clientIdFromSecretKey(secretKey: string): string {
  return createHash("sha256").update(secretKey).digest("hex").slice(0, 32);
}

export interface ChainEnv {
  NEXT_PUBLIC_THIRDWEB_CLIENT_ID?: string;
  THIRDWEB_SECRET_KEY?: string;
}

// Literal reads: Next.js inlines NEXT_PUBLIC_THIRDWEB_CLIENT_ID at build time, as in browser code,
// so server and browser agree; the secret key is read when the server runs.
const processChainEnv = (): ChainEnv => ({ NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID, THIRDWEB_SECRET_KEY: process.env.THIRDWEB_SECRET_KEY });

export function serverChainCredentials(env: ChainEnv = processChainEnv()): ChainCredentials {
  return resolveChainCredentials({ clientId: env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID, secretKey: env.THIRDWEB_SECRET_KEY }, clientIdFromSecretKey);
}

export type ServerChainClient = { ok: true; client: ThirdwebClient } | { ok: false; error: string };

export function serverThirdwebClient(env: ChainEnv = processChainEnv()): ServerChainClient {
  const credentials = serverChainCredentials(env);
  if (!credentials.ok) return credentials;
  return { ok: true, client: createThirdwebClient({ clientId: credentials.clientId, secretKey: credentials.secretKey }) };
}

// Server-only thirdweb client, from THIRDWEB_SECRET_KEY (and NEXT_PUBLIC_THIRDWEB_CLIENT_ID if set).
import { createHash } from "node:crypto";
import { createThirdwebClient, type ThirdwebClient } from "thirdweb";
import { type ChainCredentials, resolveChainCredentials } from "./credentials";

/** thirdweb derives a clientId as the first 32 hex characters of sha256(secretKey). */
export function clientIdFromSecretKey(secretKey: string): string {
  return createHash("sha256").update(secretKey).digest("hex").slice(0, 32);
}

export function serverChainCredentials(env: NodeJS.ProcessEnv = process.env): ChainCredentials {
  return resolveChainCredentials({ clientId: env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID, secretKey: env.THIRDWEB_SECRET_KEY }, clientIdFromSecretKey);
}

export type ServerChainClient = { ok: true; client: ThirdwebClient } | { ok: false; error: string };

export function serverThirdwebClient(env: NodeJS.ProcessEnv = process.env): ServerChainClient {
  const credentials = serverChainCredentials(env);
  if (!credentials.ok) return credentials;
  return { ok: true, client: createThirdwebClient({ clientId: credentials.clientId, secretKey: credentials.secretKey }) };
}

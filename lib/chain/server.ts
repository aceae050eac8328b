// Server-only thirdweb client, from THIRDWEB_SECRET_KEY (and NEXT_PUBLIC_THIRDWEB_CLIENT_ID if set).
import { createThirdwebClient, type ThirdwebClient } from "thirdweb";
import { type ChainEnv, processChainEnv, serverChainCredentials } from "./server-credentials";

export { type ChainEnv, clientIdFromSecretKey, serverChainCredentials } from "./server-credentials";

export type ServerChainClient = { ok: true; client: ThirdwebClient } | { ok: false; error: string };

export function serverThirdwebClient(env: ChainEnv = processChainEnv()): ServerChainClient {
  const credentials = serverChainCredentials(env);
  if (!credentials.ok) return credentials;
  return { ok: true, client: createThirdwebClient({ clientId: credentials.clientId, secretKey: credentials.secretKey }) };
}

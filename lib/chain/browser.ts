// The browser's thirdweb client. Only on-demand wallet code imports this module, so thirdweb stays
// out of every page's first-load JavaScript.
import { createThirdwebClient, type ThirdwebClient } from "thirdweb";
import { resolveChainCredentials } from "./credentials";

export type BrowserChainClient = { ok: true; client: ThirdwebClient } | { ok: false; error: string };

/**
 * The seed's rule with what a browser has: a clientId (public; the server may have derived it from
 * a plain secretKey, see serverChainCredentials). The browser never holds a secretKey, so the rule
 * never needs to derive one here.
 */
export function browserThirdwebClient(clientId: string | null | undefined): BrowserChainClient {
  const credentials = resolveChainCredentials({ clientId }, () => {
    throw new Error("the browser has no secretKey to derive a clientId from");
  });
  return credentials.ok ? { ok: true, client: createThirdwebClient({ clientId: credentials.clientId }) } : credentials;
}

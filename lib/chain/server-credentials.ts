// The server's thirdweb credentials, free of thirdweb itself: a page that only decides whether wallet
// features are on (e.g. /login) imports this, so its graph never pulls in the SDK.
import { createHash } from "node:crypto";
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
export const processChainEnv = (): ChainEnv => ({
  NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID,
  THIRDWEB_SECRET_KEY: process.env.THIRDWEB_SECRET_KEY,
});

let toldTheLog = false;

/** The credentials, by the seed's rule; without them the rule's message goes to the server's log once, where whoever runs the site looks. */
export function serverChainCredentials(env: ChainEnv = processChainEnv()): ChainCredentials {
  const credentials = resolveChainCredentials(
    { clientId: env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID, secretKey: env.THIRDWEB_SECRET_KEY },
    clientIdFromSecretKey,
  );
  if (!credentials.ok && !toldTheLog) {
    toldTheLog = true;
    console.warn(
      `thirdweb: ${credentials.error} — wallet sign-in, linking and token gates are off (set NEXT_PUBLIC_THIRDWEB_CLIENT_ID or THIRDWEB_SECRET_KEY; docs/deploy.md)`,
    );
  }
  return credentials;
}

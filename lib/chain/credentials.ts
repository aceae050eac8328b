// The seed's rule for a thirdweb client, kept free of thirdweb itself so a page can decide whether
// wallet features are available without loading the (large) SDK.

export const missingCredentialsMessage = "clientId or secretKey must be provided";
export const tokenSecretNeedsClientIdMessage = "clientId must be provided when using a JWT secretKey";

export type ChainCredentials =
  | { ok: true; clientId: string; secretKey?: string }
  | { ok: false; error: typeof missingCredentialsMessage | typeof tokenSecretNeedsClientIdMessage };

/** A secretKey "in token form" is a JWT: three dot-separated segments. */
function isTokenSecret(secretKey: string): boolean {
  return secretKey.split(".").length === 3;
}

/**
 * clientId or secretKey must be provided. A secretKey in token form needs a clientId too. A plain
 * secretKey alone derives the clientId (`deriveClientId`, server-side only: it needs the secret).
 * An explicit clientId always wins over a derived one.
 */
export function resolveChainCredentials(
  input: { clientId?: string | null; secretKey?: string | null },
  deriveClientId: (secretKey: string) => string,
): ChainCredentials {
  const clientId = input.clientId?.trim() || undefined;
  const secretKey = input.secretKey?.trim() || undefined;
  if (secretKey) {
    if (isTokenSecret(secretKey)) {
      return clientId ? { ok: true, clientId, secretKey } : { ok: false, error: tokenSecretNeedsClientIdMessage };
    }
    return { ok: true, clientId: clientId ?? deriveClientId(secretKey), secretKey };
  }
  return clientId ? { ok: true, clientId } : { ok: false, error: missingCredentialsMessage };
}

// ENS names and avatars in the browser: an in-memory cache per page session, filled from the
// database's cached columns when a page has them and otherwise by one lookup per address
// (thirdweb, loaded on demand). Never a lookup per render.

export interface EnsIdentity {
  name: string | null;
  avatar: string | null;
}

const known = new Map<string, Promise<EnsIdentity>>();

/** Records what the server already knows (wallets' ens_name / ens_avatar columns). */
export function rememberEns(address: string, identity: EnsIdentity): void {
  known.set(address.toLowerCase(), Promise.resolve(identity));
}

export function cachedEns(address: string): Promise<EnsIdentity> | undefined {
  return known.get(address.toLowerCase());
}

/** The address's primary name and avatar; looked up at most once per address and page session. */
export function lookUpEns(address: string, clientId: string): Promise<EnsIdentity> {
  const key = address.toLowerCase();
  let entry = known.get(key);
  if (!entry) {
    entry = import("./ens-lookup").then(({ resolveEnsIdentity }) => resolveEnsIdentity(clientId, key as `0x${string}`)).catch(() => ({ name: null, avatar: null }));
    known.set(key, entry);
  }
  return entry;
}

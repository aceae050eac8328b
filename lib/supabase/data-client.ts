import { FunctionsClient } from "@supabase/functions-js";
import { PostgrestClient } from "@supabase/postgrest-js";
import type { StorageClient } from "@supabase/storage-js";
import { projectServiceUrl, publicConfig } from "../public-config";
import type { Database } from "@/types/database";

type AccessToken = () => Promise<string | null>;

/** The new key formats, which an edge function's JWT check refuses as a bearer token. */
const isPlatformKey = (key: string) => key.startsWith("sb_publishable_") || key.startsWith("sb_secret_");

/**
 * fetch with the headers supabase-js adds to every request: the API key, and the caller's access
 * token as the bearer (the key itself when there is no session, except where `keyAsBearer` is false).
 */
function authorizedFetch(accessToken: AccessToken, { keyAsBearer }: { keyAsBearer: boolean }): typeof fetch {
  const { supabaseKey } = publicConfig;
  return async (input, init) => {
    const token = await accessToken();
    const headers = new Headers(init?.headers);
    if (!headers.has("apikey")) headers.set("apikey", supabaseKey);
    const bearer = token ?? (keyAsBearer ? supabaseKey : null);
    if (bearer && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${bearer}`);
    return fetch(input, { ...init, headers });
  };
}

/**
 * The browser's data client for pages that query in the browser: REST (`from`, `rpc`), Functions
 * and Storage, with supabase-js's interface, built from the packages supabase-js builds them from,
 * without its Auth and Realtime clients (a fifth of the bytes to load and run). Load it with a
 * dynamic import. It keeps no session: each request sends the session's current access token (see
 * ./access-token.ts), so the session lives in one place, in cookies. Storage, which a page rarely
 * needs in the browser (a signed URL for a file it did not sign on the server), loads on first use.
 */
export function createDataClient(accessToken: AccessToken) {
  const fetchAsCaller = authorizedFetch(accessToken, { keyAsBearer: true });
  const rest = new PostgrestClient<Database>(projectServiceUrl("rest/v1").href, { fetch: fetchAsCaller });
  let storage: Promise<StorageClient> | null = null;
  const loadStorage = () =>
    import("@supabase/storage-js").then(
      ({ StorageClient }) => new StorageClient(projectServiceUrl("storage/v1").href, {}, fetchAsCaller),
      (error: unknown) => {
        storage = null; // a failed chunk load (offline) may be retried
        throw error;
      },
    );
  return {
    from: rest.from.bind(rest),
    rpc: rest.rpc.bind(rest),
    functions: new FunctionsClient(projectServiceUrl("functions/v1").href, {
      customFetch: authorizedFetch(accessToken, { keyAsBearer: !isPlatformKey(publicConfig.supabaseKey) }),
    }),
    /** Storage (storage-js), loaded on first use. */
    storage: () => (storage ??= loadStorage()),
  };
}

export type BrowserData = ReturnType<typeof createDataClient>;

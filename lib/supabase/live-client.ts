import { RealtimeClient } from "@supabase/realtime-js";
import { projectServiceUrl, publicConfig } from "../public-config";

/**
 * The browser's Realtime client, for the pages' live channels (rooms, listening sessions): the
 * client supabase-js builds inside createClient (same URL, API key and token callback), on its own.
 * A live page joins its channels with it without loading REST, Storage, Functions and Auth, which
 * it needs only later, if at all (./data-client). Like the data client it keeps no session: it asks
 * `accessToken` before joining and on every heartbeat; with no session it joins as anon (the key).
 */
export function createLiveClient(accessToken: () => Promise<string | null>): RealtimeClient {
  const { supabaseKey } = publicConfig;
  const url = projectServiceUrl("realtime/v1");
  url.protocol = url.protocol.replace("http", "ws");
  return new RealtimeClient(url.href, {
    params: { apikey: supabaseKey },
    accessToken: async () => (await accessToken()) ?? supabaseKey,
  });
}

export type LiveClient = ReturnType<typeof createLiveClient>;

import { loadAccessToken, loadLiveClient, loadSupabaseData } from "@/lib/supabase/browser-clients";
import { publicConfig } from "@/lib/public-config";
import { readRoomEpoch } from "@/lib/realtime/use-room-channel";
import { sessionBackend } from "./backend";
import { localNow } from "./clock";
import { SessionConnection } from "./connection";
import type { SessionEngineDeps } from "./engine-api";
import { releaseOnExit } from "./rpc";

/** The session engine's outside world in the browser: the page's data and live clients, its token, its closing, its clock. */
export function browserEngineDeps(roomId: string, selfId: string): SessionEngineDeps {
  return {
    load: async () => {
      const [data, live] = await Promise.all([loadSupabaseData(), loadLiveClient()]);
      return {
        backend: sessionBackend(data, roomId),
        connect: (handlers) => new SessionConnection(live, roomId, selfId, handlers, readRoomEpoch),
      };
    },
    loadBackend: async () => sessionBackend(await loadSupabaseData(), roomId),
    accessToken: loadAccessToken,
    releaseOnExit: (accessToken, sessionId) => releaseOnExit(publicConfig.supabaseUrl, publicConfig.supabaseKey, accessToken, sessionId),
    onPageHide: (listener) => {
      window.addEventListener("pagehide", listener);
      return () => window.removeEventListener("pagehide", listener);
    },
    now: localNow,
  };
}

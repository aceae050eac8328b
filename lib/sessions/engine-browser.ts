import { loadAccessToken, loadLiveClient, loadSupabaseData } from "@/lib/supabase/browser-clients";
import { publicConfig } from "@/lib/public-config";
import { readRoomEpoch } from "@/lib/realtime/use-room-channel";
import { localNow } from "./clock";
import type { SessionEngineDeps } from "./engine-api";
import { releaseOnExit } from "./rpc";

/** The backend and the channel's code, loaded with the page's clients rather than with the page. */
const clientsCode = () => import("./engine-clients");

/** The session engine's outside world in the browser: the page's data and live clients, its token, its closing, its clock. */
export function browserEngineDeps(roomId: string, selfId: string): SessionEngineDeps {
  return {
    load: async () => {
      const [data, live, { sessionBackend, SessionConnection }] = await Promise.all([loadSupabaseData(), loadLiveClient(), clientsCode()]);
      return {
        backend: sessionBackend(data, roomId),
        connect: (handlers) => new SessionConnection(live, roomId, selfId, handlers, readRoomEpoch),
      };
    },
    loadBackend: async () => {
      const [data, { sessionBackend }] = await Promise.all([loadSupabaseData(), clientsCode()]);
      return sessionBackend(data, roomId);
    },
    accessToken: loadAccessToken,
    releaseOnExit: (accessToken, sessionId) => releaseOnExit(publicConfig.supabaseUrl, publicConfig.supabaseKey, accessToken, sessionId),
    onPageHide: (listener) => {
      window.addEventListener("pagehide", listener);
      return () => window.removeEventListener("pagehide", listener);
    },
    now: localNow,
  };
}

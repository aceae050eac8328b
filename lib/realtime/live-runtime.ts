// What a live page needs to join its room's channel, as one import (and so one set of chunks,
// requested together after first paint): the live client (realtime-js), the token it sends, and
// the page's room connection.
export { createLiveClient } from "@/lib/supabase/live-client";
export { currentAccessToken } from "@/lib/supabase/access-token";
export { roomConnection } from "./room-connection";

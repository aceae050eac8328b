import type { BrowserData } from "@/lib/supabase/data-client";
import { type RoomStanding, standingFromRow } from "./standing";

// The caller's standing read from the browser (the composer's countdown, a page that learns live that
// its person was timed out or banned), on the page's data client.

/** The caller's standing in the room, or null when it could not be read (keep what the page had). */
export async function fetchStanding(client: BrowserData, roomId: string): Promise<RoomStanding | null> {
  try {
    const { data, error } = await client.rpc("my_room_standing", { room_id: roomId }).maybeSingle();
    if (error || !data) return null;
    return standingFromRow(data);
  } catch {
    return null;
  }
}

"use client";

import { useEffect, useState } from "react";
import { BanNotice } from "@/components/moderation/ban-notice";
import { Alert } from "@/components/ui/alert";
import { fetchStanding } from "@/lib/moderation/rpc";
import { type RoomStanding, isBanned } from "@/lib/moderation/standing";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";

/**
 * What an open session page says once the session's channel turns it away. The person may have been
 * banned meanwhile: then it says so (until when, in their own zone), with no invitation to join;
 * otherwise the channel's own words (only members listen together). It asks `my_room_standing` once.
 */
export function SessionRefused({ roomId, message }: { roomId: string; message: string | null | undefined }) {
  // undefined: still asking; null: the answer did not come (the channel's words stand).
  const [standing, setStanding] = useState<RoomStanding | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadSupabaseData()
      .then((client) => fetchStanding(client, roomId))
      .catch(() => null)
      .then((found) => live && setStanding(found));
    return () => {
      live = false;
    };
  }, [roomId]);

  if (standing === undefined) return null;
  if (standing && isBanned(standing)) return <BanNotice until={standing.bannedUntil} />;
  return <Alert tone="error">{message}</Alert>;
}

"use client";

import type { RealtimeChannel } from "@supabase/realtime-js";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { moderationTopic } from "@/lib/moderation/reports";
import { authorizeLive } from "@/lib/realtime/live-auth";
import { type LiveClient, loadLiveClient } from "@/lib/supabase/browser-clients";

/**
 * The moderation page, live: joins the room's moderators' channel (at the room's access epoch; only
 * its owner and moderators may) and reads the page's server data again when the database says an
 * item was reported, hidden, held or resolved (the signal carries ids only). A ban moves the epoch;
 * the page's refresh after it brings the new one here.
 */
export function ModerationLive({ roomId, epoch }: { roomId: string; epoch: number }) {
  const router = useRouter();
  useEffect(() => {
    let stopped = false;
    let live: LiveClient | null = null;
    let channel: RealtimeChannel | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const client = await loadLiveClient();
      await authorizeLive(client);
      if (stopped) return;
      live = client;
      channel = client.channel(moderationTopic(roomId, epoch), { config: { private: true } });
      // Reports of one item arrive together: one refresh for the burst.
      channel.on("broadcast", { event: "queue" }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => router.refresh(), 250);
      });
      channel.subscribe();
    })().catch(() => undefined);
    return () => {
      stopped = true;
      clearTimeout(timer);
      if (live && channel) void live.removeChannel(channel);
    };
  }, [roomId, epoch, router]);
  return null;
}

"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import { getPostHeat, heatBars, heatCounts, type HeatPart, hotspotLabel, hotspots } from "@/lib/moments/heat";
import { formatMomentTime } from "@/lib/moments/time";
import { useRoomChannel } from "@/lib/realtime/use-room-channel";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { usePlayback, usePlaybackStore } from "./playback";

/** A change on the room's channel is read again after this long, plus up to as long again at random, so a busy room's pages do not all ask at once. */
const refetchAfterMs = 2000;

/**
 * Where the room reacted: a thin strip over the seek bar (`children`), stronger where the post's
 * comments and reactions cluster, and under it its three hottest moments as buttons that jump there.
 * Drawn first from the server's answer; the room's channel (the page's one connection) says when to
 * read it again.
 */
export function HeatStrip({
  postId,
  roomId,
  initial,
  children,
}: {
  postId: string;
  roomId: string;
  initial: HeatPart[];
  children: ReactNode;
}) {
  const [parts, setParts] = useState(initial);
  const playback = usePlaybackStore();
  const known = usePlayback((snapshot) => snapshot.duration);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const asked = useRef(0);

  // Changes that arrive while a read is on its way start another: the read may predate them.
  const refetch = () => {
    timer.current ??= setTimeout(
      async () => {
        timer.current = undefined;
        // Offline, the read would only fail: the channel's resync after the drop reads it again.
        if (!navigator.onLine) return;
        const ask = ++asked.current;
        const fresh = await getPostHeat(await loadSupabaseData(), postId).catch(() => null);
        if (fresh && ask === asked.current) setParts(fresh);
      },
      refetchAfterMs * (1 + Math.random()),
    );
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  useRoomChannel(roomId, {
    onChange: (change) => {
      if (change.table === "posts") return;
      const row = change.record ?? change.old_record;
      if (row?.post_id === postId) refetch();
    },
    onResync: refetch,
  });

  // The media's length; until it is known, the parts' own span (to the last comment).
  const duration = known ?? Math.max(0, ...parts.map((part) => part.to));
  const bars = heatBars(parts, duration);
  if (!bars.length) return children;
  return (
    <>
      <div aria-hidden="true" className="relative mx-3 h-1.5 overflow-hidden rounded-full bg-line/50">
        {bars.map((bar) => (
          <span
            key={bar.left}
            className="absolute inset-y-0 bg-accent motion-safe:transition-opacity"
            style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%`, opacity: bar.level }}
          />
        ))}
      </div>
      {children}
      <div role="group" aria-label="Where the room reacted" className="-mt-1 flex flex-wrap px-1.5">
        {hotspots(parts).map((part) => (
          <button
            key={part.hot}
            type="button"
            aria-label={hotspotLabel(part)}
            title={hotspotLabel(part)}
            onClick={() => playback?.seek(part.peak, { play: true })}
            className="inline-flex min-h-11 items-center gap-1 rounded-lg px-1.5 text-xs text-muted hover:bg-line/60 hover:text-ink"
          >
            <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-accent" style={{ opacity: 1 - (part.hot! - 1) * 0.3 }} />
            <span className="font-mono text-ink">{formatMomentTime(part.peak)}</span>
            {heatCounts({ comments: part.comments, reactions: 0 })}
          </button>
        ))}
      </div>
    </>
  );
}

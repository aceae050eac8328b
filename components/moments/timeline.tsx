"use client";

import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { lazyComponent } from "@/components/lazy";
import { clusterMarkers, type MarkerCluster } from "@/lib/moments/clusters";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";
import { useMoments } from "./moments-context";
import { authorName, excerpt, momentLabel } from "./names";
import { usePlayback } from "./playback";

// Its own chunk: the page paints with the server's drawing, and the code that redraws it and seeks
// arrives after (lib/media/waveform-path.ts with it).
const WaveformBar = lazyComponent(() => import("./waveform-bar").then((module) => module.WaveformBar));

function clusterLabel(cluster: MarkerCluster): string {
  const from = formatMomentTime(cluster.at);
  const until = formatMomentTime(cluster.until);
  return from === until ? `${cluster.ids.length} comments at ${from}` : `${cluster.ids.length} comments from ${from} to ${until}`;
}

/** Arrow keys, Home and End move between the markers (Tab reaches each too). */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>("button")];
  const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const target = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : index + (event.key === "ArrowRight" ? 1 : -1);
  const button = buttons[Math.max(0, Math.min(buttons.length - 1, target))];
  if (!button) return;
  event.preventDefault();
  button.focus();
}

/**
 * The post's comments as markers along the media's length, under the player. Comments closer than
 * a marker's width share one, which shows their number and opens a list of them. An upload with a
 * waveform has it drawn above them as its seek bar (./waveform-bar.tsx), with or without comments;
 * anything else keeps the plain bar, shown when there are comments.
 */
export function MomentTimeline({ waveform = null }: { waveform?: number[] | null }) {
  const { state, pick } = useMoments();
  const duration = usePlayback((snapshot) => snapshot.duration);
  const progress = usePlayback((snapshot) =>
    snapshot.duration ? Math.min(1, Math.round((snapshot.time / snapshot.duration) * 500) / 500) : 0,
  );
  const track = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [open, setOpen] = useState<number | null>(null);

  const timed = useMemo(
    // Comments on the post only (replies are under them, not markers), and not those deleted above their replies.
    () => state.items.filter((moment): moment is Moment & { at_seconds: number } => moment.at_seconds !== null && !moment.deleted_at),
    [state.items],
  );
  const drawn = Boolean(duration && waveform);
  const shown = Boolean(duration && (timed.length || drawn));

  useEffect(() => {
    const element = track.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);

  const byId = useMemo(() => new Map(timed.map((moment) => [moment.id, moment])), [timed]);
  const clusters = useMemo(
    () =>
      clusterMarkers(
        timed.map((moment) => ({ id: moment.id, at: moment.at_seconds })),
        duration ?? 0,
        width,
      ),
    [timed, duration, width],
  );
  const openCluster = clusters.find((cluster) => cluster.at === open && cluster.ids.length > 1) ?? null;

  if (!shown) return null;
  return (
    <div className="flex flex-col gap-2">
      {drawn && waveform && duration ? (
        <div className="px-3">
          <WaveformBar waveform={waveform} duration={duration} markers={clusters.map((cluster) => cluster.left)} />
        </div>
      ) : null}
      <div className="px-3">
        <div ref={track} className={!drawn ? "relative h-8" : timed.length ? "relative -mt-2 h-8" : "relative h-0"}>
          {drawn ? null : (
            <div aria-hidden="true" className="absolute inset-x-0 top-1/2 h-1.5 -translate-y-1/2 overflow-hidden rounded-full bg-line">
              <div className="h-full bg-accent/60" style={{ width: `${progress * 100}%` }} />
            </div>
          )}
          <div role="group" aria-label="Comments on the timeline" onKeyDown={moveFocus}>
            {clusters.map((cluster) => {
              const single = cluster.ids.length === 1 ? byId.get(cluster.ids[0]) : undefined;
              const label = single ? momentLabel(single) : clusterLabel(cluster);
              return (
                <button
                  key={`${cluster.at}-${cluster.ids[0]}`}
                  type="button"
                  aria-label={label}
                  title={label}
                  aria-expanded={single ? undefined : openCluster === cluster}
                  onClick={() => {
                    const first = byId.get(cluster.ids[0]);
                    if (first) pick(first);
                    setOpen(single || openCluster === cluster ? null : cluster.at);
                  }}
                  className="group absolute top-0 flex h-8 w-6 -translate-x-1/2 items-center justify-center rounded-full"
                  style={{ left: `${cluster.left * 100}%` }}
                >
                  {single ? (
                    <span className="h-3.5 w-3.5 rounded-full border-2 border-raised bg-accent shadow transition group-hover:scale-125" />
                  ) : (
                    <span className="flex h-5 min-w-5 items-center justify-center rounded-full border-2 border-raised bg-accent px-1 text-[11px] font-semibold leading-none text-accent-ink shadow">
                      {cluster.ids.length}
                    </span>
                  )}
                </button>
              );
            })}
          </div>
        </div>
      </div>
      {openCluster ? (
        <ul aria-label={clusterLabel(openCluster)} className="flex flex-col gap-1 rounded-xl border border-line bg-raised p-2 text-sm">
          {openCluster.ids.map((id) => {
            const moment = byId.get(id);
            if (!moment) return null;
            return (
              <li key={id}>
                <button
                  type="button"
                  onClick={() => pick(moment)}
                  className="flex w-full min-w-0 items-baseline gap-2 rounded-lg px-2 py-1.5 text-left hover:bg-line/60"
                >
                  <span className="font-mono text-accent">{formatMomentTime(moment.at_seconds)}</span>
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{authorName(moment)}</span>: {excerpt(moment.body)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

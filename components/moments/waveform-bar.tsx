"use client";

import { type KeyboardEvent, type PointerEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { drawWaveform } from "@/lib/media/waveform-path";
import { formatMomentTime } from "@/lib/moments/time";
import { usePlayback, usePlaybackStore } from "./playback";

const heightPx = 56;
/** Before the bar knows its width (on the server, before layout): a stand-in size, stretched to fit. */
const standIn = { width: 640, ratio: 1 };
const step = 5;

/**
 * An upload's waveform as its seek bar: the played part in the accent colour, the time under the
 * pointer, the comments' places as ticks. A slider for the keyboard and screen readers (arrows ±5 s,
 * Page Up/Down ±30 s, Home, End); pointing, clicking and dragging seek. Drawn in device pixels
 * (lib/media/waveform-path.ts), again whenever its width or the pixel ratio changes.
 */
export function WaveformBar({ waveform, duration, markers }: { waveform: number[]; duration: number; markers: number[] }) {
  const store = usePlaybackStore();
  const time = usePlayback((snapshot) => Math.min(duration, Math.max(0, snapshot.time)));
  const element = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; ratio: number } | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const dragging = useRef(false);
  const clipId = useId();

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const measure = () => setSize({ width: target.getBoundingClientRect().width, ratio: window.devicePixelRatio || 1 });
    const observer = new ResizeObserver(measure);
    observer.observe(target);
    // A change of pixel ratio alone (a window moved to another screen) leaves the width as it was.
    let query: MediaQueryList | null = null;
    const watchRatio = () => {
      query?.removeEventListener("change", onRatio);
      query = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
      query.addEventListener("change", onRatio);
    };
    const onRatio = () => {
      measure();
      watchRatio();
    };
    watchRatio();
    return () => {
      observer.disconnect();
      query?.removeEventListener("change", onRatio);
    };
  }, []);

  const shown = size ?? standIn;
  const drawing = useMemo(() => drawWaveform(waveform, shown.width, heightPx, shown.ratio), [waveform, shown.width, shown.ratio]);
  const played = duration > 0 ? time / duration : 0;

  const seek = (seconds: number) => store?.seek(Math.min(duration, Math.max(0, seconds)));
  const fractionAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return box.width > 0 ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: time + step,
      ArrowUp: time + step,
      ArrowLeft: time - step,
      ArrowDown: time - step,
      PageUp: time + 30,
      PageDown: time - 30,
      Home: 0,
      End: duration,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    seek(moves[event.key]);
  };

  return (
    <div
      ref={element}
      role="slider"
      tabIndex={0}
      aria-label="Seek"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.floor(time)}
      aria-valuetext={`${formatMomentTime(time)} of ${formatMomentTime(duration)}`}
      data-waveform-bars={drawing.bars}
      className="relative w-full cursor-pointer touch-pan-y rounded-lg select-none"
      style={{ height: heightPx }}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        seek(fractionAt(event) * duration);
      }}
      onPointerMove={(event) => {
        const fraction = fractionAt(event);
        setHover(fraction);
        if (dragging.current) seek(fraction * duration);
      }}
      onPointerUp={(event) => {
        dragging.current = false;
        if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
      }}
      onPointerCancel={() => (dragging.current = false)}
      onPointerLeave={() => setHover(null)}
    >
      <svg
        aria-hidden="true"
        className="absolute inset-0 h-full w-full"
        viewBox={`0 0 ${drawing.width} ${drawing.height}`}
        preserveAspectRatio="none"
        shapeRendering="crispEdges"
      >
        <defs>
          <clipPath id={clipId}>
            <rect width={Math.round(played * drawing.width)} height={drawing.height} />
          </clipPath>
        </defs>
        {markers.map((at, index) => (
          <rect
            key={index}
            className="fill-accent/25"
            x={Math.round(at * drawing.width) - Math.round(shown.ratio)}
            width={Math.max(1, Math.round(2 * shown.ratio))}
            height={drawing.height}
          />
        ))}
        <path className="fill-muted/45" d={drawing.path} data-waveform="all" />
        <path className="fill-accent" d={drawing.path} clipPath={`url(#${clipId})`} data-waveform="played" />
        {hover !== null ? (
          <rect
            className="fill-ink"
            x={Math.round(hover * drawing.width)}
            width={Math.max(1, Math.round(shown.ratio))}
            height={drawing.height}
          />
        ) : null}
      </svg>
      {hover !== null ? (
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-1 -translate-x-1/2 rounded-md bg-ink px-1.5 py-0.5 font-mono text-xs text-surface shadow"
          style={{ left: `clamp(1.5rem, ${hover * 100}%, calc(100% - 1.5rem))` }}
        >
          {formatMomentTime(hover * duration)}
        </span>
      ) : null}
    </div>
  );
}

// How a waveform is drawn at a given size: bars laid out in whole device pixels, so they stay crisp
// at any width and pixel ratio. Pure: the seek bar (components/moments/waveform-bar.tsx) draws the
// path it returns in an SVG whose viewBox is the drawing's size in device pixels.
import { barsOf } from "./peaks.ts";

export interface WaveformDrawing {
  /** The viewBox's width and height, in device pixels. */
  width: number;
  height: number;
  /** One SVG path of every bar (mirrored about the middle). */
  path: string;
  bars: number;
}

/** Each bar 2 CSS pixels wide with a 1 pixel gap, at least one device pixel each; a silent stretch still shows a line. */
export function drawWaveform(waveform: readonly number[], cssWidth: number, cssHeight: number, pixelRatio: number): WaveformDrawing {
  const ratio = Number.isFinite(pixelRatio) && pixelRatio > 0 ? pixelRatio : 1;
  const width = Math.max(1, Math.round(cssWidth * ratio));
  const height = Math.max(2, Math.round(cssHeight * ratio));
  const bar = Math.max(1, Math.round(2 * ratio));
  const pitch = bar + Math.max(1, Math.round(ratio));
  const count = Math.max(1, Math.floor((width + pitch - bar) / pitch));
  const levels = barsOf(waveform, count);
  const floor = Math.max(1, Math.round(ratio));
  let path = "";
  levels.forEach((level, index) => {
    const tall = Math.max(floor, Math.round(level * height));
    const top = Math.floor((height - tall) / 2);
    path += `M${index * pitch} ${top}h${bar}v${tall}h${-bar}z`;
  });
  return { width, height, path, bars: levels.length };
}

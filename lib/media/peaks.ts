// A file's waveform: the loudest moment of each stretch of its length. Pure code, shared by the
// upload form (which decodes the file in the browser as it uploads), the server's backfill (the same
// decoding, in a headless browser), the post page that draws it and the schemas that check it.

/** The most peaks a waveform has (a file with fewer samples has one per sample). */
export const waveformLength = 1000;
/** A peak at full scale (or past it: clipped). */
export const waveformTop = 255;

/**
 * The waveform of decoded audio: its length cut into `count` equal stretches, each one's loudest
 * sample over all channels, as a share of full scale in whole steps from 0 to 255. Not normalised:
 * silence stays 0 and a quiet file stays low (the drawing scales to the loudest peak). Null when
 * there is nothing to measure.
 */
export function peaksOf(channels: readonly ArrayLike<number>[], count: number = waveformLength): number[] | null {
  if (!channels.length) return null;
  let length = Infinity;
  for (const channel of channels) length = Math.min(length, channel.length);
  const stretches = Math.min(Math.floor(count), length);
  if (!(stretches > 0)) return null;
  const peaks: number[] = new Array(stretches).fill(0);
  for (const channel of channels) {
    for (let stretch = 0; stretch < stretches; stretch++) {
      const end = Math.floor(((stretch + 1) * length) / stretches);
      let peak = peaks[stretch];
      for (let i = Math.floor((stretch * length) / stretches); i < end; i++) {
        const sample = channel[i];
        const size = sample < 0 ? -sample : sample; // NaN fails both comparisons and counts as silence
        if (size > peak) peak = size;
      }
      peaks[stretch] = peak;
    }
  }
  return peaks.map((peak) => Math.min(waveformTop, Math.round(peak * waveformTop)));
}

/** A stored waveform as read back from the database, checked by plain code (no schema library on the page). */
export function readWaveform(value: unknown): number[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > waveformLength) return null;
  return value.every((peak) => Number.isInteger(peak) && peak >= 0 && peak <= waveformTop) ? (value as number[]) : null;
}

/**
 * `count` bars from a waveform, for a drawing that has room for that many: each bar the loudest peak
 * of the ones it covers, as a share (0–1) of the waveform's loudest, so a quiet file still shows its
 * shape. All zeros for silence.
 */
export function barsOf(waveform: readonly number[], count: number): number[] {
  const bars = Math.max(1, Math.floor(count));
  const loudest = Math.max(1, ...waveform);
  const heights: number[] = [];
  for (let bar = 0; bar < bars; bar++) {
    const start = Math.floor((bar * waveform.length) / bars);
    const end = Math.max(start + 1, Math.floor(((bar + 1) * waveform.length) / bars));
    let peak = 0;
    for (let i = start; i < end && i < waveform.length; i++) peak = Math.max(peak, waveform[i]);
    heights.push(peak / loudest);
  }
  return heights;
}

// A file's waveform, computed by the browser: its own decoder reads the file (MP3, WAV, AAC/MP4,
// Ogg, FLAC, WebM/Opus — audio, or a video's sound) and ./peaks.ts measures it. Used by the upload
// form while the file uploads, and by the server's backfill in a headless browser, so both decode
// alike. Imports only ./peaks.ts, by a relative path: the backfill serves these two files as they are.
import { peaksOf } from "./peaks.ts";

/**
 * Decoded at this rate: the browser resamples as it decodes, and at 8 kHz the longest file an upload
 * allows stays within a few hundred megabytes of memory. Peaks lose only what lies above 4 kHz,
 * which a drawing a few hundred bars wide never shows.
 */
const decodeRate = 8000;

/** The waveform of an audio or video file's bytes; null when the browser cannot decode them (no sound, an unknown format). */
export async function decodePeaks(bytes: ArrayBuffer): Promise<number[] | null> {
  try {
    const context = new OfflineAudioContext(1, 1, decodeRate);
    const audio = await context.decodeAudioData(bytes);
    const channels: Float32Array[] = [];
    for (let channel = 0; channel < audio.numberOfChannels; channel++) channels.push(audio.getChannelData(channel));
    return peaksOf(channels);
  } catch {
    return null;
  }
}

/** The waveform of a chosen file (see decodePeaks). */
export async function filePeaks(file: Blob): Promise<number[] | null> {
  const bytes = await file.arrayBuffer().catch(() => null);
  return bytes ? decodePeaks(bytes) : null;
}

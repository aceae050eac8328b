// Audio files made in code for the waveform tests: WAV in the sample formats the decoders meet
// (8-bit unsigned, 16-bit, 32-bit float; mono or stereo), MP3 by a JavaScript encoder, and the
// shaped tones they carry, whose waveform is known in advance.
import { Mp3Encoder } from "@breezystack/lamejs";

export type WavFormat = "pcm8" | "pcm16" | "float32";

/** A sine of `hz` whose loudness at each moment is `envelope(t)` (0–1, or past 1 to clip). */
export function shapedTone(seconds: number, rate: number, envelope: (t: number) => number, hz = 440): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => envelope(i / rate) * Math.sin((2 * Math.PI * hz * i) / rate));
}

/** A rise from silence to full scale over the first half, then half loudness, then silence for the last quarter. */
export const rampThenHalf = (seconds: number) => (t: number) => (t < seconds / 2 ? t / (seconds / 2) : t < (3 * seconds) / 4 ? 0.5 : 0);

export function wavBytes(channels: Float32Array[], rate: number, format: WavFormat): Uint8Array {
  const bytesPerSample = format === "pcm8" ? 1 : format === "pcm16" ? 2 : 4;
  const frames = channels[0].length;
  const dataSize = frames * channels.length * bytesPerSample;
  const bytes = new Uint8Array(44 + dataSize);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => [...text].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataSize, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, format === "float32" ? 3 : 1, true); // 3: IEEE float, 1: PCM
  view.setUint16(22, channels.length, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels.length * bytesPerSample, true);
  view.setUint16(32, channels.length * bytesPerSample, true);
  view.setUint16(34, bytesPerSample * 8, true);
  ascii(36, "data");
  view.setUint32(40, dataSize, true);
  let offset = 44;
  for (let frame = 0; frame < frames; frame++) {
    for (const channel of channels) {
      const sample = channel[frame];
      const clamped = Math.max(-1, Math.min(1, sample));
      if (format === "pcm8") view.setUint8(offset, Math.round(128 + clamped * 127));
      else if (format === "pcm16") view.setInt16(offset, Math.round(clamped * 32767), true);
      else view.setFloat32(offset, sample, true);
      offset += bytesPerSample;
    }
  }
  return bytes;
}

/** An MP3 (128 kb/s) of one or two channels. */
export function mp3Bytes(channels: Float32Array[], rate: number): Uint8Array {
  const encoder = new Mp3Encoder(channels.length, rate, 128);
  const pcm = channels.map((channel) => Int16Array.from(channel, (sample) => Math.round(Math.max(-1, Math.min(1, sample)) * 32767)));
  const parts: Uint8Array[] = [];
  const block = 1152;
  for (let start = 0; start < pcm[0].length; start += block) {
    parts.push(encoder.encodeBuffer(pcm[0].subarray(start, start + block), pcm[1]?.subarray(start, start + block)));
  }
  parts.push(encoder.flush());
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

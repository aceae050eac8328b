// The waveform of real files, decoded as the upload form and the backfill decode them: the app's
// lib/media/decode-peaks.ts in Chromium (scripts/waveform-decoder.ts), on files made here — WAV in
// 8-bit, 16-bit and float, mono and stereo; MP3; a WebM video recorded by Chromium itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { barsOf, peaksOf, waveformLength } from "@/lib/media/peaks";
import { mp3Bytes, rampThenHalf, shapedTone, wavBytes } from "../helpers/audio-fixtures";
import { openWaveformDecoder, type WaveformDecoder } from "../../scripts/waveform-decoder";

let decoder: WaveformDecoder;
beforeAll(async () => {
  decoder = await openWaveformDecoder();
});
afterAll(async () => {
  await decoder?.close();
});

/** A waveform in 20 stretches, each its loudest peak (0–255): what the tests compare. */
const coarse = (peaks: number[]) => {
  const loudest = Math.max(...peaks);
  return barsOf(peaks, 20).map((share) => Math.round(share * loudest));
};

/** 4 s: 0–2 s rising to full scale, 2–3 s at half, 3–4 s silent. In 20 stretches of 0.2 s: */
const expected = [
  ...Array.from({ length: 10 }, (_, i) => Math.round(((i + 1) / 10) * 255)),
  ...new Array(5).fill(128),
  ...new Array(5).fill(0),
];

function expectShape(peaks: number[] | null, tolerance: number, { skipEdges = false } = {}) {
  expect(peaks).not.toBeNull();
  expect(peaks!.length).toBe(waveformLength);
  const got = coarse(peaks!);
  got.forEach((value, i) => {
    // A lossy encoder's delay and padding move the edges (at 2 s and 3 s) by a few hundredths of a second.
    if (skipEdges && (i === 10 || i === 15)) return;
    expect(Math.abs(value - expected[i]), `stretch ${i}: ${value}, expected ${expected[i]} (all: ${got.join(" ")})`).toBeLessThanOrEqual(
      tolerance,
    );
  });
}

describe("decoding a file for its waveform", () => {
  it("a 16-bit mono WAV of a shaped tone gives the tone's envelope", async () => {
    const rate = 44100;
    expectShape(await decoder.peaks(wavBytes([shapedTone(4, rate, rampThenHalf(4))], rate, "pcm16")), 6);
  });

  it("an 8-bit WAV gives the same envelope", async () => {
    const rate = 22050;
    expectShape(await decoder.peaks(wavBytes([shapedTone(4, rate, rampThenHalf(4))], rate, "pcm8")), 8);
  });

  it("a 32-bit float stereo WAV: the louder channel counts, and samples past full scale read as clipped", async () => {
    const rate = 48000;
    const left = shapedTone(4, rate, (t) => (t < 2 ? 1.8 : 0)); // float WAV holds samples past ±1
    const right = shapedTone(4, rate, (t) => (t < 2 ? 0.1 : 0.5));
    const peaks = (await decoder.peaks(wavBytes([left, right], rate, "float32")))!;
    expect(peaks).toHaveLength(waveformLength);
    const got = coarse(peaks);
    expect(got.slice(0, 9).every((value) => value === 255)).toBe(true);
    expect(got.slice(11).every((value) => Math.abs(value - 128) <= 4)).toBe(true);
  });

  it("silence gives a flat waveform of zeros", async () => {
    const peaks = await decoder.peaks(wavBytes([new Float32Array(8000 * 2), new Float32Array(8000 * 2)], 8000, "pcm16"));
    expect(peaks).toEqual(new Array(waveformLength).fill(0));
  });

  it("an MP3, mono and stereo, gives the tone's envelope", async () => {
    const rate = 44100;
    const tone = shapedTone(4, rate, rampThenHalf(4));
    expectShape(await decoder.peaks(mp3Bytes([tone], rate)), 16, { skipEdges: true });
    expectShape(await decoder.peaks(mp3Bytes([tone, tone.map((sample) => sample * 0.5)], rate)), 16, { skipEdges: true });
  });

  it("a WebM video's sound gives its shape; a video without sound and a file that is not media give none", async () => {
    const recorded = await decoder.page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 64;
      canvas.height = 48;
      const context2d = canvas.getContext("2d")!;
      const record = async (withSound: boolean) => {
        const stream = canvas.captureStream(15);
        const audio = new AudioContext();
        if (withSound) {
          // Rising from silence over 1.5 s, then silent.
          const tone = new OscillatorNode(audio, { frequency: 440 });
          const gain = new GainNode(audio, { gain: 0 });
          const out = audio.createMediaStreamDestination();
          tone.connect(gain).connect(out);
          gain.gain.setValueAtTime(0, audio.currentTime);
          gain.gain.linearRampToValueAtTime(1, audio.currentTime + 1.5);
          gain.gain.setValueAtTime(0, audio.currentTime + 1.5);
          tone.start();
          stream.addTrack(out.stream.getAudioTracks()[0]);
        }
        const recorder = new MediaRecorder(stream, { mimeType: withSound ? "video/webm;codecs=vp8,opus" : "video/webm;codecs=vp8" });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        recorder.start();
        for (let frame = 0; frame < 30; frame++) {
          context2d.fillStyle = `hsl(${frame * 12}, 80%, 50%)`;
          context2d.fillRect(0, 0, 64, 48);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        recorder.stop();
        await stopped;
        await audio.close();
        return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
      };
      return { withSound: await record(true), silent: await record(false) };
    });
    const peaks = (await decoder.peaks(Uint8Array.from(recorded.withSound)))!;
    expect(peaks).not.toBeNull();
    const got = coarse(peaks);
    const loudest = got.indexOf(Math.max(...got));
    // The loudest moment is the end of the rise, about half way (the recording runs about 3 s).
    expect(loudest, got.join(" ")).toBeGreaterThanOrEqual(6);
    expect(loudest, got.join(" ")).toBeLessThanOrEqual(12);
    expect(got[1], got.join(" ")).toBeLessThan(got[loudest] / 2);
    expect(Math.max(...got.slice(14)), got.join(" ")).toBeLessThan(20);

    expect(await decoder.peaks(Uint8Array.from(recorded.silent))).toBeNull();
    expect(await decoder.peaks(new TextEncoder().encode("%PDF-1.4 not a sound"))).toBeNull();
  });

  it("decodes as the pure function measures: the browser's decoder adds nothing of its own", async () => {
    const rate = 8000; // the rate decoding uses: no resampling
    const tone = shapedTone(3, rate, (t) => Math.abs(Math.sin(t * 2)));
    const decoded = await decoder.peaks(wavBytes([tone], rate, "float32"));
    expect(decoded).toEqual(peaksOf([tone]));
  });
});

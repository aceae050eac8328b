import { describe, expect, it } from "vitest";
import { barsOf, peaksOf, readWaveform, waveformLength, waveformTop } from "@/lib/media/peaks";
import { drawWaveform } from "@/lib/media/waveform-path";
import { uploadPostSchema } from "@/lib/validation/post";

const rate = 8000;
/** A 440 Hz sine, `seconds` long, its loudness at each moment given by `envelope(t)`. */
const tone = (seconds: number, envelope: (t: number) => number, hz = 440) =>
  Float32Array.from({ length: seconds * rate }, (_, i) => envelope(i / rate) * Math.sin((2 * Math.PI * hz * i) / rate));

describe("peaksOf", () => {
  it("follows a tone's envelope: a rise, a plateau, silence", () => {
    // 0–2 s rising from 0 to full scale, 2–3 s at half, 3–4 s silent; 40 stretches of 0.1 s.
    const envelope = (t: number) => (t < 2 ? t / 2 : t < 3 ? 0.5 : 0);
    const peaks = peaksOf([tone(4, envelope)], 40)!;
    expect(peaks).toHaveLength(40);
    for (let i = 0; i < 20; i++) expect(Math.abs(peaks[i] - envelope((i + 1) / 10 - 1 / rate) * waveformTop)).toBeLessThanOrEqual(3);
    for (let i = 20; i < 30; i++) expect(Math.abs(peaks[i] - 128)).toBeLessThanOrEqual(2);
    for (let i = 30; i < 40; i++) expect(peaks[i]).toBe(0);
    // Rising throughout the ramp.
    for (let i = 1; i < 20; i++) expect(peaks[i]).toBeGreaterThan(peaks[i - 1]);
  });

  it("makes 1000 peaks by default", () => {
    const peaks = peaksOf([tone(3, () => 0.25)])!;
    expect(peaks).toHaveLength(waveformLength);
    // 0.25 × 255 = 63.75; a stretch of 24 samples may miss the sine's crest by a hair.
    expect(peaks.every((peak) => peak === 63 || peak === 64)).toBe(true);
  });

  it("keeps silence at zero (no normalising a quiet file up to noise)", () => {
    expect(peaksOf([new Float32Array(rate * 2)], 100)).toEqual(new Array(100).fill(0));
  });

  it("tops clipped audio at 255, however far past full scale", () => {
    const clipped = tone(1, () => 3);
    clipped[5] = -40;
    const peaks = peaksOf([clipped], 10)!;
    expect(peaks).toEqual(new Array(10).fill(255));
    expect(Math.max(...peaks)).toBe(waveformTop);
  });

  it("takes the loudest channel of a stereo file at each moment", () => {
    const left = tone(2, (t) => (t < 1 ? 1 : 0));
    const right = tone(2, (t) => (t < 1 ? 0.2 : 0.6));
    const peaks = peaksOf([left, right], 4)!;
    expect(peaks.slice(0, 2)).toEqual([255, 255]);
    expect(peaks.slice(2).every((peak) => Math.abs(peak - 153) <= 1)).toBe(true);
    // The same signal in both channels reads as the mono file does.
    const mono = tone(2, (t) => t / 2);
    expect(peaksOf([mono, mono.slice()], 50)).toEqual(peaksOf([mono], 50));
  });

  it("has one peak per sample for a file shorter than the waveform, and none for an empty one", () => {
    expect(peaksOf([Float32Array.from([0, 0.5, -1])])).toEqual([0, 128, 255]);
    expect(peaksOf([new Float32Array(0)])).toBeNull();
    expect(peaksOf([])).toBeNull();
  });

  it("reads a sample that is not a number as silence", () => {
    expect(peaksOf([Float32Array.from([NaN, 0.5, NaN, 0])], 2)).toEqual([128, 0]);
  });
});

describe("readWaveform", () => {
  it("accepts what the database allows and nothing else", () => {
    expect(readWaveform([0, 12, 255])).toEqual([0, 12, 255]);
    expect(readWaveform(null)).toBeNull();
    expect(readWaveform([])).toBeNull();
    expect(readWaveform([1, 256])).toBeNull();
    expect(readWaveform([1.5])).toBeNull();
    expect(readWaveform(new Array(1001).fill(1))).toBeNull();
    expect(readWaveform("0,1,2")).toBeNull();
  });
});

describe("barsOf", () => {
  it("fits a waveform to the bars drawn, scaled to its loudest peak", () => {
    expect(barsOf([10, 20, 40, 30], 2)).toEqual([0.5, 1]);
    expect(barsOf([0, 0, 0], 3)).toEqual([0, 0, 0]);
    expect(barsOf([51, 102], 4)).toEqual([0.5, 0.5, 1, 1]);
  });
});

describe("the upload's schema", () => {
  const path = "0f8fad5b-d9cb-469f-a165-70867728950e/7c9e6679-7425-40de-944b-e07fc1f90ae7/a.wav";
  const post = { title: "t", body: "", path, durationSeconds: 1 };
  it("takes a waveform the database takes, or none", () => {
    expect(uploadPostSchema.safeParse({ ...post, waveform: [0, 255] }).success).toBe(true);
    expect(uploadPostSchema.safeParse({ ...post, waveform: null }).success).toBe(true);
    expect(uploadPostSchema.safeParse(post).success).toBe(true);
  });
  it("refuses one the database would refuse, in words", () => {
    for (const waveform of [new Array(1001).fill(1), [256], [-1], [1.5], [], ["1"]]) {
      const parsed = uploadPostSchema.safeParse({ ...post, waveform });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].message).toBe("The file's waveform couldn't be read — post it again");
    }
  });
});

describe("drawWaveform", () => {
  const numbers = (path: string) => [...path.matchAll(/-?\d+(\.\d+)?/g)].map((match) => Number(match[0]));

  it("lays bars out in whole device pixels at any pixel ratio, filling the width", () => {
    for (const [width, ratio] of [
      [358, 1],
      [358, 2],
      [1000, 1.5],
      [333.5, 3],
    ]) {
      const drawing = drawWaveform(new Array(1000).fill(200), width, 56, ratio);
      expect(drawing.width).toBe(Math.round(width * ratio));
      expect(drawing.height).toBe(Math.round(56 * ratio));
      expect(numbers(drawing.path).every(Number.isInteger)).toBe(true);
      // Bars of about 2 CSS pixels and gaps of about 1 (rounded to device pixels), the last within the width.
      expect(drawing.bars).toBeGreaterThanOrEqual(Math.floor(width / 4));
      expect(drawing.bars).toBeLessThanOrEqual(Math.ceil(width / 3) + 1);
      const lastX = Number(/M(\d+) \d+h\d+v\d+h-\d+z$/.exec(drawing.path)![1]);
      expect(lastX + Math.round(2 * ratio)).toBeLessThanOrEqual(drawing.width);
    }
  });

  it("draws each bar's height from the waveform, centred, with a line where it is silent", () => {
    const drawing = drawWaveform([255, 0, 128, 255], 12, 50, 1); // 4 bars
    expect(drawing.bars).toBe(4);
    expect(drawing.path).toBe("M0 0h2v50h-2zM3 24h2v1h-2zM6 12h2v25h-2zM9 0h2v50h-2z");
  });
});

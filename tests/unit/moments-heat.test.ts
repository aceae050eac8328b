// The heat strip's pure parts (lib/moments/heat.ts): rows checked by plain code, the hottest moments
// in order, their words, and where each part sits along the timeline.
import { describe, expect, test } from "vitest";
import { heatBars, heatCounts, type HeatPart, hotspotLabel, hotspots, shapeHeat } from "../../lib/moments/heat";

const row = (bucket: number, comments: number, reactions: number, hot: number | null, peak: number) => ({
  bucket,
  starts_at: bucket * 10,
  ends_at: bucket * 10 + 10,
  comments,
  reactions,
  hot,
  peak_at: peak,
});

describe("shapeHeat", () => {
  test("rows become parts in timeline order", () => {
    expect(shapeHeat([row(5, 1, 0, 2, 55), row(1, 4, 2, 1, 14.2)])).toEqual([
      { from: 10, to: 20, comments: 4, reactions: 2, hot: 1, peak: 14.2 },
      { from: 50, to: 60, comments: 1, reactions: 0, hot: 2, peak: 55 },
    ]);
  });

  test("anything that is not a list of parts gives none; a row that does not fit is left out", () => {
    expect(shapeHeat(null)).toEqual([]);
    expect(shapeHeat({ bucket: 1 })).toEqual([]);
    expect(
      shapeHeat([{ ...row(1, 1, 0, null, 12), ends_at: 5 }, { ...row(2, 1, 0, null, 22), comments: "x" }, row(3, 1, 0, null, 31)]),
    ).toEqual([{ from: 30, to: 40, comments: 1, reactions: 0, hot: null, peak: 31 }]);
  });
});

describe("hotspots and their words", () => {
  const parts = shapeHeat([row(1, 38, 12, 1, 134), row(3, 1, 0, 3, 31), row(5, 2, 1, 2, 52), row(6, 1, 0, null, 61)]);

  test("the hot ones, hottest first", () => {
    expect(hotspots(parts).map((part) => part.peak)).toEqual([134, 52, 31]);
    expect(hotspots([])).toEqual([]);
  });

  test("a jump point says where it goes and what happened there", () => {
    expect(hotspotLabel(parts[0])).toBe("Jump to 2:14 — 38 comments and 12 reactions");
    expect(hotspotLabel(parts[1])).toBe("Jump to 0:31 — 1 comment");
    expect(heatCounts({ comments: 2, reactions: 1 })).toBe("2 comments and 1 reaction");
    expect(heatCounts({ comments: 0, reactions: 3 })).toBe("3 reactions");
  });
});

describe("heatBars", () => {
  const part = (from: number, to: number, comments: number, reactions = 0): HeatPart => ({
    from,
    to,
    comments,
    reactions,
    hot: null,
    peak: from,
  });

  test("each part at its place along the media, as strong as its share of the busiest", () => {
    expect(heatBars([part(0, 25, 1), part(50, 75, 6, 2)], 100)).toEqual([
      { left: 0, width: 0.25, level: 0.15 },
      { left: 0.5, width: 0.25, level: 1 },
    ]);
    expect(heatBars([part(0, 10, 4), part(10, 20, 8)], 20).map((bar) => bar.level)).toEqual([0.5, 1]);
  });

  test("parts past the media's end are cut to it or left out; no length, no bars", () => {
    expect(heatBars([part(80, 120, 1), part(130, 140, 1)], 100)).toEqual([{ left: 0.8, width: 0.2, level: 1 }]);
    expect(heatBars([part(0, 10, 1)], 0)).toEqual([]);
    expect(heatBars([], 100)).toEqual([]);
  });
});

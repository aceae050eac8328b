// Times as people read and type them, and markers on the seek bar clustered when too close to tell apart.
import { expect, test } from "vitest";
import { clusterMarkers } from "@/lib/moments/clusters";
import { formatMomentTime, parseMomentTime } from "@/lib/moments/time";

test("times read as players show them: whole seconds, minutes, hours", () => {
  expect(formatMomentTime(0)).toBe("0:00");
  expect(formatMomentTime(5.9)).toBe("0:05");
  expect(formatMomentTime(102.7)).toBe("1:42");
  expect(formatMomentTime(3725)).toBe("1:02:05");
  expect(formatMomentTime(-3)).toBe("0:00");
  expect(formatMomentTime(Number.NaN)).toBe("0:00");
});

test("typed times: m:ss, h:mm:ss, seconds, negative kept so the form can say why; anything else is not a time", () => {
  expect(parseMomentTime("1:42")).toBe(102);
  expect(parseMomentTime(" 1:02:05 ")).toBe(3725);
  expect(parseMomentTime("90")).toBe(90);
  expect(parseMomentTime("0:01.5")).toBe(1.5);
  expect(parseMomentTime("-0:05")).toBe(-5);
  expect(parseMomentTime("1:75")).toBeNull();
  expect(parseMomentTime("1:61:00")).toBeNull();
  expect(parseMomentTime("")).toBeNull();
  expect(parseMomentTime("soon")).toBeNull();
  expect(formatMomentTime(parseMomentTime("12:34")!)).toBe("12:34");
});

test("markers sit at their share of the duration; ones closer than the gap share a marker at the earliest", () => {
  const points = [
    { id: "c", at: 31 },
    { id: "a", at: 10 },
    { id: "b", at: 11 },
    { id: "d", at: 90 },
  ];
  // 100 s over 400 px: 4 px a second, 24 px gap → within 6 s of a cluster's first marker.
  const clusters = clusterMarkers(points, 100, 400);
  expect(clusters).toEqual([
    { at: 10, until: 11, ids: ["a", "b"], left: 0.1 },
    { at: 31, until: 31, ids: ["c"], left: 0.31 },
    { at: 90, until: 90, ids: ["d"], left: 0.9 },
  ]);
  // The same moments on a wide bar are all apart.
  expect(clusterMarkers(points, 100, 4000)).toHaveLength(4);
  // On a phone-narrow bar everything near merges.
  expect(clusterMarkers(points, 100, 60).map((cluster) => cluster.ids)).toEqual([["a", "b", "c"], ["d"]]);
});

test("no duration or no width: no markers; a time past the end sits at the end", () => {
  expect(clusterMarkers([{ id: "a", at: 1 }], 0, 400)).toEqual([]);
  expect(clusterMarkers([{ id: "a", at: 1 }], 100, 0)).toEqual([]);
  expect(clusterMarkers([{ id: "a", at: 120 }], 100, 400)[0].left).toBe(1);
});

test("a long chain of close markers does not merge forever: clusters are measured from their first marker", () => {
  const chain = Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, at: i * 2 }));
  expect(clusterMarkers(chain, 100, 400).map((cluster) => cluster.ids.length)).toEqual([3, 3, 3, 1]);
});

// `?t=` on a post's link, as YouTube writes it: the seconds, or nothing for what is not a time.
import { expect, test } from "vitest";
import { parseStartTime } from "@/lib/moments/start-time";

test("plain seconds and the h/m/s forms", () => {
  expect(parseStartTime("102")).toBe(102);
  expect(parseStartTime("102s")).toBe(102);
  expect(parseStartTime("0")).toBe(0);
  expect(parseStartTime("1m42s")).toBe(102);
  expect(parseStartTime("1h2m3s")).toBe(3723);
  expect(parseStartTime("2m")).toBe(120);
  expect(parseStartTime("1h")).toBe(3600);
  expect(parseStartTime("1h5s")).toBe(3605);
  expect(parseStartTime(" 1M42S ")).toBe(102);
});

test("bad values are ignored", () => {
  for (const value of ["", "abc", "-5", "1.5", "1:42", "42m1h", "1m1m", "h", "1d", "99999999", "49h", "1e3", "0x10"]) {
    expect(parseStartTime(value), value).toBeNull();
  }
  expect(parseStartTime(undefined)).toBeNull();
  expect(parseStartTime(null)).toBeNull();
  expect(parseStartTime(["102", "5"])).toBeNull();
  expect(parseStartTime("172800")).toBe(172800);
  expect(parseStartTime("172801")).toBeNull();
});

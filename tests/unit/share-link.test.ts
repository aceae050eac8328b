// The links "Share" copies: a post at a time (`?t=1m42s`, with `&end=` for a clip) and a comment's `/m/<id>`.
import { expect, test } from "vitest";
import { formatLinkTime, momentShareLink, postShareLink, siteOrigin } from "@/lib/moments/share-link";
import { parseStartTime } from "@/lib/moments/start-time";

test("times as ?t= writes them, and read back the same", () => {
  const cases: [number, string][] = [
    [0, "0s"],
    [5, "5s"],
    [60, "1m"],
    [102, "1m42s"],
    [102.9, "1m42s"],
    [3600, "1h"],
    [3723, "1h2m3s"],
    [3605, "1h5s"],
    [-3, "0s"],
    [Number.NaN, "0s"],
  ];
  for (const [seconds, text] of cases) expect(formatLinkTime(seconds), String(seconds)).toBe(text);
  for (const seconds of [1, 59, 61, 102, 3599, 3723, 172_800]) expect(parseStartTime(formatLinkTime(seconds))).toBe(seconds);
});

const post = { slug: "late-night", id: "3f0b8c1e-6d3c-4b55-9b8a-2b1f5e7c9d10" };
const origin = "https://cuepoint.example";

test("a post's link starts at the time and may end later", () => {
  expect(postShareLink(origin, post, { start: 102.4, end: null })).toBe(`${origin}/r/late-night/p/${post.id}?t=1m42s`);
  expect(postShareLink(origin, post, { start: 102, end: 130 })).toBe(`${origin}/r/late-night/p/${post.id}?t=1m42s&end=2m10s`);
  // From the beginning: no ?t=.
  expect(postShareLink(origin, post, { start: null, end: null })).toBe(`${origin}/r/late-night/p/${post.id}`);
  expect(postShareLink(origin, post, { start: 0.4, end: null })).toBe(`${origin}/r/late-night/p/${post.id}`);
  expect(postShareLink(origin, post, { start: null, end: 30 })).toBe(`${origin}/r/late-night/p/${post.id}?end=30s`);
  // An end that is not after the start is left out.
  expect(postShareLink(origin, post, { start: 102, end: 102 })).toBe(`${origin}/r/late-night/p/${post.id}?t=1m42s`);
  expect(postShareLink(origin, post, { start: 102, end: 50 })).toBe(`${origin}/r/late-night/p/${post.id}?t=1m42s`);
});

test("a comment's link, and the site's address before the page's", () => {
  expect(momentShareLink(origin, "abc")).toBe(`${origin}/m/abc`);
  expect(siteOrigin("https://cuepoint.example/", "http://localhost:3300")).toBe("https://cuepoint.example");
  expect(siteOrigin(undefined, "http://localhost:3300")).toBe("http://localhost:3300");
  expect(siteOrigin("  ", "http://localhost:3300/")).toBe("http://localhost:3300");
});

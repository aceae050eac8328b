// The link rule's table of cases (tests/fixtures/media-links.json), on the app's side: a link is one
// the app stores when checkMediaUrl accepts it and its canonical form is the link itself (the server
// action stores that form). tests/integration/media-link-rule.test.ts asks the database the same.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { checkMediaUrl } from "@/lib/media/url-rules";

const { cases } = JSON.parse(readFileSync(new URL("../fixtures/media-links.json", import.meta.url), "utf8")) as {
  cases: { url: string; stored: boolean }[];
};

test.each(cases)("$url: stored $stored", ({ url, stored }) => {
  const checked = checkMediaUrl(url);
  expect(checked.ok && checked.url.href === url).toBe(stored);
});

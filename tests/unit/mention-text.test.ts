// A text with @names as the page renders it: the named ones are links to the person's current
// username, everything else (markup included) is plain text, escaped.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { MentionText } from "@/components/mentions/mention-text";

const bob = { user_id: "u-bob", handle: "bob", person: { username: "bobby" } };
const render = (text: string, mentions = [bob]) => renderToStaticMarkup(createElement(MentionText, { text, mentions }));

test("a named @handle links to the current username; an unnamed one stays text", () => {
  const html = render("hi @Bob and @carol");
  expect(html).toMatch(/<a [^>]*href="\/u\/bobby"[^>]*>@Bob<\/a>/);
  expect(html).toContain(" and @carol");
  expect(html.match(/<a /g)).toHaveLength(1);
});

test("markup in the text is never markup on the page", () => {
  const html = render('<img src=x onerror="alert(1)"> @bob <a href="javascript:alert(1)">x</a>');
  expect(html).not.toContain("<img");
  expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  expect(html).not.toContain('href="javascript');
  expect(html.match(/<a /g)).toHaveLength(1);
});

test("without mention rows nothing is a link", () => {
  expect(render("hi @bob", [])).toBe("hi @bob");
});

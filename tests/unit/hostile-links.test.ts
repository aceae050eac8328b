// A link post's media_url as the database may hold it (written through REST, around the form): the
// feed's card shows where it is from without throwing, and the rule that reads the host refuses
// what no player could open. Before, `new URL()` on `https://[x]` threw while rendering and took
// the room's whole feed down for everyone.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { PostCard } from "@/components/posts/post-card";
import { linkHostname } from "@/lib/media/url-rules";
import type { Post } from "@/lib/posts/queries";

const hostile = [
  "https://[x]",
  "https://a%b/",
  "https://a:99999/",
  "https://xn--/",
  "https://",
  "https://user:pw@example.com/a",
  "https://127.0.0.1/a",
  "https://exa mple.com/",
  "javascript:alert(1)",
  "",
  "https://\u202eevil.com/",
];

const post = (media_url: string | null): Post =>
  ({
    id: "00000000-0000-4000-8000-000000000001",
    room_id: "00000000-0000-4000-8000-000000000002",
    author_id: "00000000-0000-4000-8000-000000000003",
    title: "<script>alert(1)</script>",
    body: null,
    media_kind: "embed",
    media_url,
    storage_path: null,
    embed: null,
    duration_seconds: null,
    created_at: "2026-11-26T12:00:00Z",
    updated_at: "2026-11-26T12:00:00Z",
    author: { username: "ada", display_name: "Ada", avatar_path: null },
  }) as unknown as Post;

test.each(hostile)("a card for the stored link %j renders, says only 'Link', and shows the title as text", (url) => {
  const html = renderToStaticMarkup(createElement(PostCard, { post: post(url), slug: "room", now: 0 }));
  expect(html).toContain(">Link<");
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  expect(html).not.toContain("<script>");
});

test("a good link shows its host", () => {
  expect(
    renderToStaticMarkup(createElement(PostCard, { post: post("https://www.example.com/track.mp3"), slug: "room", now: 0 })),
  ).toContain(">www.example.com<");
  expect(linkHostname("https://cdn.example.org/a.mp3")).toBe("cdn.example.org");
});

test.each([...hostile, null, undefined])("linkHostname(%j) is null", (url) => {
  expect(linkHostname(url)).toBeNull();
});

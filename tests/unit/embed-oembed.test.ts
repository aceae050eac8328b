import { describe, expect, test } from "vitest";
import {
  embedSize,
  escapeAttribute,
  iframeHtml,
  isEmbedPath,
  oembedAnswer,
  oembedDiscoveryHref,
  oembedRefusals,
  parseEmbedUrl,
  readMaxSize,
  requestOrigin,
  siteOrigins,
  type EmbeddablePost,
} from "../../lib/embed/oembed";

const site = "https://cuepoint.example";
const origins = [site];
const postId = "0b6b4f0e-5d7a-4c1e-9a55-2f3c4d5e6f70";
const momentId = "1c7c5f1f-6e8b-4d2f-8b66-3a4d5e6f7a81";

describe("which urls are ours to embed", () => {
  test("a post's address, with ?t= read as the post page reads it", () => {
    expect(parseEmbedUrl(`${site}/r/night-owls/p/${postId}`, origins)).toEqual({
      ok: true,
      target: { kind: "post", slug: "night-owls", postId, startAt: null },
    });
    expect(parseEmbedUrl(`${site}/r/night-owls/p/${postId}?t=1m42s`, origins)).toMatchObject({ ok: true, target: { startAt: 102 } });
    expect(parseEmbedUrl(`${site}/r/night-owls/p/${postId}/?t=90&comment=x#top`, origins)).toMatchObject({
      ok: true,
      target: { startAt: 90 },
    });
    // a time the post page would ignore starts at the beginning
    expect(parseEmbedUrl(`${site}/r/night-owls/p/${postId}?t=-4`, origins)).toMatchObject({ ok: true, target: { startAt: null } });
  });

  test("a comment's address (/m/<id>)", () => {
    expect(parseEmbedUrl(`${site}/m/${momentId}`, origins)).toEqual({ ok: true, target: { kind: "moment", momentId } });
  });

  test("nothing given, or not a web address: 400", () => {
    for (const raw of [null, undefined, "", "   "]) expect(parseEmbedUrl(raw, origins)).toEqual({ ok: false, problem: "missing" });
    for (const raw of ["not a url", "/r/night-owls/p/" + postId, "javascript:alert(1)", `ftp://cuepoint.example/r/a/p/${postId}`]) {
      expect(parseEmbedUrl(raw, origins)).toEqual({ ok: false, problem: "garbled" });
    }
    expect(oembedRefusals.missing.status).toBe(400);
    expect(oembedRefusals.garbled.status).toBe(400);
  });

  test("another site's address, however like ours it looks: 400", () => {
    for (const raw of [
      `https://evil.example/r/night-owls/p/${postId}`,
      `https://cuepoint.example.evil.example/r/night-owls/p/${postId}`,
      `http://cuepoint.example/r/night-owls/p/${postId}`,
      `https://cuepoint.example:8443/r/night-owls/p/${postId}`,
      `https://user:pw@cuepoint.example/r/night-owls/p/${postId}`,
    ]) {
      expect(parseEmbedUrl(raw, origins)).toEqual({ ok: false, problem: "foreign" });
    }
    expect(oembedRefusals.foreign.status).toBe(400);
  });

  test("our site, but nothing that can be embedded: 404", () => {
    for (const path of [
      "/",
      "/r/night-owls",
      `/r/night-owls/p/not-an-id`,
      `/r/Night_Owls/p/${postId}`,
      `/m/${momentId}/x`,
      `/u/someone`,
      `/embed/p/${postId}`,
    ]) {
      expect(parseEmbedUrl(`${site}${path}`, origins)).toEqual({ ok: false, problem: "unknown" });
    }
    expect(oembedRefusals.unknown.status).toBe(404);
    expect(oembedRefusals.format.status).toBe(501);
  });

  test("ours: the request's own origin and the configured site URL", () => {
    expect(siteOrigins("http://localhost:3100", "https://cuepoint.example/")).toEqual([
      "http://localhost:3100",
      "https://cuepoint.example",
    ]);
    expect(siteOrigins("http://localhost:3100", "not a url")).toEqual(["http://localhost:3100"]);
    expect(siteOrigins("http://localhost:3100", undefined)).toEqual(["http://localhost:3100"]);
  });

  test("the request's origin from its host (and a proxy's forwarded scheme); a malformed host falls back", () => {
    const headers = (entries: Record<string, string>) => new Headers(entries);
    expect(requestOrigin(headers({ host: "localhost:3100" }), "http://localhost:3000")).toBe("http://localhost:3100");
    expect(requestOrigin(headers({ host: "cuepoint.example", "x-forwarded-proto": "https" }), "http://x")).toBe("https://cuepoint.example");
    expect(requestOrigin(headers({ host: "a.example/evil?" }), "https://cuepoint.example")).toBe("https://cuepoint.example");
    expect(requestOrigin(headers({}), "https://cuepoint.example")).toBe("https://cuepoint.example");
  });

  test("only /embed/… may be framed", () => {
    expect(isEmbedPath(`/embed/p/${postId}`)).toBe(true);
    expect(isEmbedPath("/")).toBe(false);
    expect(isEmbedPath(`/r/a/p/${postId}`)).toBe(false);
    expect(isEmbedPath("/embedded")).toBe(false);
  });
});

describe("the frame's size", () => {
  test("560 wide by default; audio 180 high, video 16:9 plus the title line and timeline, at most 400", () => {
    expect(embedSize({ maxwidth: null, maxheight: null }, true)).toEqual({ width: 560, height: 180 });
    expect(embedSize({ maxwidth: null, maxheight: null }, false)).toEqual({ width: 560, height: 400 });
    expect(embedSize({ maxwidth: 320, maxheight: null }, false)).toEqual({ width: 320, height: 276 });
  });

  test("within maxwidth and maxheight, never more than asked for", () => {
    expect(embedSize({ maxwidth: 1200, maxheight: 1000 }, false)).toEqual({ width: 560, height: 400 });
    expect(embedSize({ maxwidth: 300, maxheight: 150 }, true)).toEqual({ width: 300, height: 150 });
    expect(embedSize({ maxwidth: 100, maxheight: null }, false).height).toBeLessThanOrEqual(400);
  });

  test("maxwidth/maxheight are whole pixels; anything else sets no limit", () => {
    expect(readMaxSize("480")).toBe(480);
    expect(readMaxSize(" 480 ")).toBe(480);
    for (const value of [null, "", "0", "-5", "4.5", "480px", "1e3", "999999"]) expect(readMaxSize(value)).toBeNull();
  });
});

describe("the answer", () => {
  const post: EmbeddablePost = {
    id: postId,
    title: `Drop "at" <1:42> & 'more'`,
    room: { slug: "night-owls", name: "Night <Owls>" },
    author: { username: "bea", display_name: "Bea" },
    audio: true,
    thumbnail: null,
  };
  const at = { origin: site, startAt: 102, maxwidth: null, maxheight: null };

  test("oEmbed 1.0, type rich, the poster as author, Cuepoint as provider", () => {
    const answer = oembedAnswer(post, at);
    expect(answer).toMatchObject({
      type: "rich",
      version: "1.0",
      title: post.title,
      author_name: "Bea",
      author_url: `${site}/u/bea`,
      provider_name: "Cuepoint",
      provider_url: `${site}/`,
      width: 560,
      height: 180,
    });
    expect(answer).not.toHaveProperty("thumbnail_url");
  });

  test("the iframe: the embed page at the start time, its size, its attributes escaped", () => {
    const { html, width, height } = oembedAnswer(post, at);
    expect(html).toBe(
      `<iframe src="${site}/embed/p/${postId}?t=102" width="${width}" height="${height}" frameborder="0" ` +
        `allow="autoplay; encrypted-media; fullscreen" title="Drop &quot;at&quot; &lt;1:42&gt; &amp; &#39;more&#39; · Night &lt;Owls&gt;" loading="lazy"></iframe>`,
    );
    expect(oembedAnswer(post, { ...at, startAt: null }).html).toContain(`src="${site}/embed/p/${postId}"`);
    expect(oembedAnswer(post, { ...at, startAt: 0 }).html).toContain(`src="${site}/embed/p/${postId}"`);
  });

  test("maxwidth/maxheight reach the iframe and the answer alike", () => {
    const answer = oembedAnswer({ ...post, audio: false }, { ...at, maxwidth: 400, maxheight: 250 });
    expect([answer.width, answer.height]).toEqual([400, 250]);
    expect(answer.html).toContain('width="400" height="250"');
  });

  test("a thumbnail with its size when the post has one; no author when the profile is gone", () => {
    const answer = oembedAnswer(
      { ...post, author: null, thumbnail: { url: "https://i.ytimg.com/vi/x/hqdefault.jpg", width: 480, height: 360 } },
      at,
    );
    expect(answer).toMatchObject({ thumbnail_url: "https://i.ytimg.com/vi/x/hqdefault.jpg", thumbnail_width: 480, thumbnail_height: 360 });
    expect(answer).not.toHaveProperty("author_name");
    expect(answer).not.toHaveProperty("author_url");
  });

  test("escaping leaves no character that could end the attribute or open a tag", () => {
    expect(escapeAttribute(`"><script>alert('x')</script>`)).toBe("&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect(iframeHtml({ src: 'https://a.example/?a=1&b="', width: 1, height: 2, title: "t" })).toContain(
      'src="https://a.example/?a=1&amp;b=&quot;"',
    );
  });

  test("the discovery link names the page's address, encoded", () => {
    expect(oembedDiscoveryHref(site, `${site}/r/night-owls/p/${postId}`)).toBe(
      `${site}/oembed?url=${encodeURIComponent(`${site}/r/night-owls/p/${postId}`)}&format=json`,
    );
  });
});

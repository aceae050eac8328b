// The embed function's pure parts: which allow-listed provider a link belongs to (exact hosts,
// never a substring), the request it makes (the provider's endpoint; the link only as the `url`
// parameter), and what it keeps of an answer (plain text, https thumbnails, numbers).
import { describe, expect, test } from "vitest";
import { normaliseOembed, plainText } from "../../lib/media/oembed-normalise";
import {
  endpointVariable,
  findOembedProvider,
  oembedProviders,
  oembedRequestUrl,
  type OembedProviderKey,
} from "../../lib/media/oembed-providers";
import { checkMediaUrl } from "../../lib/media/url-rules";
import { htmlAuthor, htmlTitle, providerKeys, realAnswer } from "../helpers/oembed-providers";

const parse = (link: string) => {
  const checked = checkMediaUrl(link);
  if (!checked.ok) throw new Error(`${link}: ${checked.error}`);
  return checked.url;
};
const providerOf = (link: string) => findOembedProvider(parse(link))?.key ?? null;
const provider = (key: OembedProviderKey) => oembedProviders.find((candidate) => candidate.key === key)!;

describe("findOembedProvider", () => {
  const links: [string, OembedProviderKey][] = [
    ["https://www.youtube.com/watch?v=jNQXAC9IVRw", "youtube"],
    ["https://youtube.com/watch?feature=share&v=jNQXAC9IVRw", "youtube"],
    ["https://m.youtube.com/watch?v=jNQXAC9IVRw", "youtube"],
    ["https://youtu.be/jNQXAC9IVRw?t=3", "youtube"],
    ["https://www.youtube.com/shorts/tPEE9ZwTmy0", "youtube"],
    ["https://www.youtube.com/live/jfKfPfyJRdk", "youtube"],
    ["https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI", "youtube"],
    ["https://www.youtube.com./watch?v=jNQXAC9IVRw", "youtube"],
    ["https://vimeo.com/76979871", "vimeo"],
    ["https://player.vimeo.com/video/76979871", "vimeo"],
    ["https://vimeo.com/channels/staffpicks/76979871", "vimeo"],
    ["https://soundcloud.com/forss/flickermood", "soundcloud"],
    ["https://soundcloud.com/forss/sets/soulhack", "soundcloud"],
    ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC", "spotify"],
    ["https://open.spotify.com/intl-de/album/4aawyAB9vmqN3uQ7FjRGTy", "spotify"],
    ["https://www.twitch.tv/videos/106400740", "twitch"],
    ["https://www.twitch.tv/gamesdonequick", "twitch"],
    ["https://clips.twitch.tv/HorribleWoodpeckerHassanChop", "twitch"],
    ["https://www.tiktok.com/@scout2015/video/6718335390845095173", "tiktok"],
    ["https://support.wistia.com/medias/26sk4lmiix", "wistia"],
    ["https://fast.wistia.net/embed/iframe/26sk4lmiix", "wistia"],
    ["https://stream.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs", "mux"],
    ["https://player.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs", "mux"],
  ];

  test.each(links)("%s → %s", (link, key) => {
    expect(providerOf(link)).toBe(key);
  });

  test("a host is matched exactly, never found inside another host, path or query", () => {
    for (const link of [
      "https://www.youtube.com.evil-site.net/watch?v=jNQXAC9IVRw",
      "https://evilyoutube.com/watch?v=jNQXAC9IVRw",
      "https://evil-site.net/www.youtube.com/watch?v=jNQXAC9IVRw",
      "https://evil-site.net/watch?v=jNQXAC9IVRw&u=https://www.youtube.com/",
      "https://evil-site.net/?url=https://vimeo.com/76979871",
      "https://vimeo.com.evil-site.net/76979871",
      "https://wistia.com.evil-site.net/medias/26sk4lmiix",
      "https://a.b.wistia.com/medias/26sk4lmiix",
      "https://stream.mux.com.evil-site.net/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs",
      "https://www.youtube.com:8443/watch?v=jNQXAC9IVRw",
    ]) {
      expect(providerOf(link), link).toBeNull();
    }
  });

  test("links on a provider's host that are not media it describes are not looked up", () => {
    for (const link of [
      "https://www.youtube.com/",
      "https://www.youtube.com/results?search_query=zoo",
      "https://open.spotify.com/search/zoo",
      "https://www.tiktok.com/@scout2015",
      "https://support.wistia.com/",
    ]) {
      expect(providerOf(link), link).toBeNull();
    }
  });

  test("plain files, streams and other sites belong to no provider", () => {
    for (const link of [
      "https://cdn.example.com/a.mp3",
      "https://test-streams.mux.dev/x36xhzz/x36xhzz.m3u8",
      "https://www.dailymotion.com/video/x7tgad0",
    ]) {
      expect(providerOf(link), link).toBeNull();
    }
  });

  test("a link that is not https, or carries credentials, belongs to no provider even if parsed", () => {
    expect(findOembedProvider(new URL("http://www.youtube.com/watch?v=jNQXAC9IVRw"))).toBeNull();
    expect(findOembedProvider(new URL("https://a:b@www.youtube.com/watch?v=jNQXAC9IVRw"))).toBeNull();
  });
});

describe("oembedRequestUrl", () => {
  test("asks the provider's own endpoint, with the link as the url parameter and format=json", () => {
    const request = oembedRequestUrl(
      provider("youtube").endpoint,
      provider("youtube"),
      parse("https://www.youtube.com/watch?v=jNQXAC9IVRw&t=42"),
    );
    expect(request.origin).toBe("https://www.youtube.com");
    expect(request.pathname).toBe("/oembed");
    expect([...request.searchParams]).toEqual([
      ["url", "https://www.youtube.com/watch?v=jNQXAC9IVRw&t=42"],
      ["format", "json"],
    ]);
  });

  test("a link crafted with a second url parameter, a fragment or encoded separators cannot add parameters or change the host", () => {
    const link = parse(
      "https://www.youtube.com/watch?v=jNQXAC9IVRw&url=https://evil-site.net/&format=xml%26url%3Dhttps://evil-site.net#@evil-site.net",
    );
    const request = oembedRequestUrl("https://www.youtube.com/oembed", provider("youtube"), link);
    expect(request.host).toBe("www.youtube.com");
    expect(request.searchParams.getAll("url")).toEqual([link.href]);
    expect(request.searchParams.getAll("format")).toEqual(["json"]);
  });

  test("every provider's default endpoint is https on the provider's own domain", () => {
    const domains: Record<OembedProviderKey, string> = {
      youtube: "www.youtube.com",
      vimeo: "vimeo.com",
      soundcloud: "soundcloud.com",
      spotify: "open.spotify.com",
      twitch: "api.twitch.tv",
      tiktok: "www.tiktok.com",
      wistia: "fast.wistia.com",
      mux: "player.mux.com",
    };
    expect(oembedProviders.map((p) => p.key).sort()).toEqual([...providerKeys].sort());
    for (const p of oembedProviders) {
      expect(new URL(p.endpoint).protocol).toBe("https:");
      expect(new URL(p.endpoint).host).toBe(domains[p.key]);
    }
  });

  test("Mux is asked about its player page, whichever Mux link was pasted", () => {
    const request = oembedRequestUrl(
      provider("mux").endpoint,
      provider("mux"),
      parse("https://stream.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs"),
    );
    expect(request.searchParams.get("url")).toBe("https://player.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs");
  });

  test("the override variables are named after the providers", () => {
    expect(endpointVariable("youtube")).toBe("OEMBED_ENDPOINT_YOUTUBE");
    expect(endpointVariable("soundcloud")).toBe("OEMBED_ENDPOINT_SOUNDCLOUD");
  });
});

describe("normaliseOembed", () => {
  test("each provider's real answer becomes plain metadata, without its html", () => {
    const expected: Record<OembedProviderKey, Record<string, unknown>> = {
      youtube: {
        title: "Me at the zoo",
        author: "jawed",
        thumbnail_url: "https://i.ytimg.com/vi/jNQXAC9IVRw/hqdefault.jpg",
        duration: null,
        width: 200,
        height: 150,
      },
      vimeo: { title: "The New Vimeo Player (You Know, For Videos)", author: "Vimeo", duration: 62, width: 640, height: 360 },
      soundcloud: {
        title: "Flickermood by Forss",
        author: "Forss",
        thumbnail_url: "https://i1.sndcdn.com/artworks-000067273316-smsiqx-t500x500.jpg",
        width: null,
        height: 400,
      },
      spotify: { title: "Never Gonna Give You Up", author: null, width: 456, height: 152 },
      twitch: { title: "Speedrun marathon, day 3", author: "GamesDoneQuick", duration: 5426, width: 500, height: 281 },
      tiktok: {
        title: "Scramble up ur name & I’ll try to guess it😍❤️ #foryoupage #petsoftiktok #aesthetic",
        author: "Scout, Suki & Stella",
        width: null,
        height: null,
      },
      wistia: { title: "Brendan - Make It Clap", author: null, duration: 16.43, width: 960, height: 540 },
      mux: { title: "Big Buck Bunny", author: null, width: 1920, height: 1080 },
    };
    for (const key of providerKeys) {
      const embed = normaliseOembed(provider(key), realAnswer(key, "https://www.youtube.com/watch?v=jNQXAC9IVRw"));
      expect(embed, key).toMatchObject({ provider: key, provider_name: provider(key).name, ...expected[key] });
      expect(Object.keys(embed!).sort(), key).toEqual([
        "author",
        "duration",
        "height",
        "provider",
        "provider_name",
        "thumbnail_url",
        "title",
        "width",
      ]);
      expect(embed!.thumbnail_url, key).toMatch(/^https:\/\//);
      expect(JSON.stringify(embed), key).not.toMatch(/<|iframe|script/);
    }
  });

  test("markup in title and author is stripped to plain text, scripts and all", () => {
    const embed = normaliseOembed(provider("youtube"), { ...realAnswer("youtube", "x"), title: htmlTitle, author_name: htmlAuthor });
    expect(embed).toMatchObject({ title: "Night drive & chill mix", author: "DJ Ada" });
  });

  test("plainText: entities that spell tags, control characters and runs of spaces", () => {
    expect(plainText("&lt;script&gt;alert(1)&lt;/script&gt;Song", 300)).toBe("Song");
    expect(plainText("A&amp;amp;B", 300)).toBe("A&B");
    expect(plainText("Line\u0000one\n\t two\u202e", 300)).toBe("Line one two");
    expect(plainText("Caf&#233; &#x1F3B5;", 300)).toBe("Café 🎵");
    expect(plainText("<p></p>", 300)).toBeNull();
    expect(plainText(42, 300)).toBeNull();
    expect(plainText("x".repeat(400), 300)).toHaveLength(300);
  });

  test("a thumbnail that is not a public https link is dropped", () => {
    for (const thumbnail_url of [
      "http://i.ytimg.com/vi/x/hqdefault.jpg",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "https://127.0.0.1/x.jpg",
      "//i.ytimg.com/x.jpg",
      7,
    ]) {
      expect(normaliseOembed(provider("youtube"), { title: "t", thumbnail_url })?.thumbnail_url, String(thumbnail_url)).toBeNull();
    }
  });

  test("sizes and durations are positive numbers or null", () => {
    expect(normaliseOembed(provider("vimeo"), { width: "640", height: "-1", duration: "abc" })).toMatchObject({
      width: 640,
      height: null,
      duration: null,
    });
    expect(normaliseOembed(provider("vimeo"), { width: Infinity, height: 0, duration: 1e12 })).toMatchObject({
      width: null,
      height: null,
      duration: null,
    });
  });

  test("a Twitch recording's length is its video_length; a live channel has none", () => {
    const { video_length, ...live } = realAnswer("twitch", "https://www.twitch.tv/gamesdonequick");
    expect(video_length).toBe(5426);
    expect(normaliseOembed(provider("twitch"), { ...live, twitch_type: "channel" })?.duration).toBeNull();
    expect(normaliseOembed(provider("twitch"), { ...live, video_length: 0 })?.duration).toBeNull();
  });

  test("an answer that is not a JSON object is not oEmbed", () => {
    for (const answer of [null, "Not Found", [], 42]) expect(normaliseOembed(provider("youtube"), answer)).toBeNull();
  });
});

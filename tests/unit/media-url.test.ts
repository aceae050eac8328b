// Which links a post may carry: the link rules (https, public host, no credentials, length) and
// react-player's own canPlay, with real links of each provider.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import players from "react-player/players";
import { describe, expect, test } from "vitest";
import { checkPlayableUrl, isPlayableUrl, mediaPlayers, notPlayableMessage, playerFor } from "../../lib/media/playable";
import { checkMediaUrl, mediaUrlMaxLength, mediaUrlMessages } from "../../lib/media/url-rules";
import { playableUrlSchema } from "../../lib/validation/media-url";

const playable: [string, string][] = [
  ["https://www.youtube.com/watch?v=jNQXAC9IVRw", "youtube"],
  ["https://youtu.be/jNQXAC9IVRw", "youtube"],
  ["https://www.youtube.com/shorts/tPEE9ZwTmy0", "youtube"],
  ["https://www.youtube.com/watch?app=desktop&v=dQw4w9WgXcQ&t=42s", "youtube"],
  ["https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI", "youtube"],
  ["https://vimeo.com/76979871", "vimeo"],
  ["https://player.vimeo.com/video/76979871", "vimeo"],
  ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC", "spotify"],
  ["https://open.spotify.com/episode/7makk4oTQel546B0PZlDM5", "spotify"],
  ["https://www.twitch.tv/videos/106400740", "twitch"],
  ["https://www.twitch.tv/gamesdonequick", "twitch"],
  ["https://www.tiktok.com/@scout2015/video/6718335390845095173", "tiktok"],
  ["https://support.wistia.com/medias/26sk4lmiix", "wistia"],
  ["https://fast.wistia.net/embed/iframe/26sk4lmiix", "wistia"],
  ["https://stream.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs", "mux"],
  ["https://stream.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs.m3u8", "hls"],
  ["https://test-streams.mux.dev/x36xhzz/x36xhzz.m3u8", "hls"],
  ["https://dash.akamaized.net/envivio/EnvivioDash3/manifest.mpd", "dash"],
  ["https://upload.wikimedia.org/wikipedia/commons/c/c8/Example.ogg", "html"],
  ["https://interactive-examples.mdn.mozilla.net/media/cc0-audio/t-rex-roar.mp3", "html"],
  ["https://commondatastorage.googleapis.com/gtv-videos-bucket/sample/BigBuckBunny.mp4", "html"],
  ["https://cdn.example.com/clips/intro.webm?token=abc", "html"],
];

describe("isPlayableUrl: react-player's canPlay behind the link rules", () => {
  test.each(playable)("%s plays with react-player's %s player", (url, player) => {
    expect(isPlayableUrl(url)).toBe(true);
    expect(checkPlayableUrl(url)).toEqual({ ok: true, url: new URL(url).href, player });
  });

  test("each answer is react-player's own: the first player in its list whose canPlay accepts the link", () => {
    expect(mediaPlayers.map((player) => player.key)).toEqual(players.map((player) => player.key));
    for (const [url] of playable) expect(playerFor(url)).toBe(players.find((player) => player.canPlay(url))?.key);
  });

  test("links react-player v3 has no player for are refused with a message naming what works", () => {
    for (const url of [
      "https://soundcloud.com/forss/flickermood", // react-player 3 dropped SoundCloud's player
      "https://www.dailymotion.com/video/x7tgad0",
      "https://example.com/blog/a-post-about-music",
      "https://www.youtube.com/@jawed",
      "https://open.spotify.com/",
    ]) {
      expect(checkPlayableUrl(url), url).toEqual({ ok: false, problem: "not_playable", error: notPlayableMessage });
    }
  });

  test("surrounding spaces are ignored and the link is normalised", () => {
    expect(checkPlayableUrl("  https://WWW.YouTube.com/watch?v=jNQXAC9IVRw \n")).toEqual({
      ok: true,
      url: "https://www.youtube.com/watch?v=jNQXAC9IVRw",
      player: "youtube",
    });
  });
});

describe("the link rules refuse, with a reason", () => {
  const refused: [string, keyof typeof mediaUrlMessages][] = [
    ["", "empty"],
    ["   ", "empty"],
    ["javascript:alert(document.cookie)", "not_https"],
    ["JavaScript:alert(1)//https://www.youtube.com/watch?v=jNQXAC9IVRw", "not_https"],
    ["data:audio/mpeg;base64,SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4LjI5LjEwMAAAAAAAAAAAAAAA", "not_https"],
    ["data:text/html,<script>alert(1)</script>.mp4", "not_https"],
    ["http://www.youtube.com/watch?v=jNQXAC9IVRw", "not_https"],
    ["ftp://files.example.com/a.mp3", "not_https"],
    ["file:///etc/passwd.mp3", "not_https"],
    ["www.youtube.com/watch?v=jNQXAC9IVRw", "malformed"],
    ["not a link", "malformed"],
    ["https://", "malformed"],
    ["https:/www.youtube.com/watch?v=jNQXAC9IVRw", "malformed"],
    ["https:www.youtube.com/watch?v=jNQXAC9IVRw", "malformed"],
    ["https://www.you tube.com/watch?v=jNQXAC9IVRw", "malformed"],
    ["https://www.youtube.com/watch?v=jNQXAC9IVRw\nhttps://evil.test/a.mp4", "malformed"],
    ["https:\\\\evil.example.com\\a.mp4", "malformed"],
    ["https://user:secret@cdn.example.com/a.mp4", "credentials"],
    ["https://www.youtube.com@evil.example.com/watch?v=jNQXAC9IVRw", "credentials"],
    ["https://127.0.0.1/a.mp4", "not_public"],
    ["https://2130706433/a.mp4", "not_public"],
    ["https://0x7f.1/a.mp4", "not_public"],
    ["https://[::1]/a.mp4", "not_public"],
    ["https://169.254.169.254/latest/meta-data.mp4", "not_public"],
    ["https://localhost/a.mp4", "not_public"],
    ["https://media.local/a.mp4", "not_public"],
    ["https://intranet/a.mp4", "not_public"],
    ["https://evil.test/a.mp4", "not_public"],
    [`https://cdn.example.com/${"a".repeat(mediaUrlMaxLength)}.mp4`, "too_long"],
  ];

  test.each(refused)("%j → %s", (input, problem) => {
    expect(checkMediaUrl(input)).toEqual({ ok: false, problem, error: mediaUrlMessages[problem] });
    expect(isPlayableUrl(input)).toBe(false);
  });

  test("the messages say what to do", () => {
    expect(mediaUrlMessages.not_https).toBe("Links must start with https:// (javascript:, data: and http:// links aren't allowed).");
    expect(mediaUrlMessages.too_long).toBe("Links can be up to 2048 characters.");
  });

  test("exactly 2048 characters is allowed", () => {
    const url = `https://cdn.example.com/${"a".repeat(mediaUrlMaxLength - "https://cdn.example.com/.mp4".length)}.mp4`;
    expect(url).toHaveLength(mediaUrlMaxLength);
    expect(isPlayableUrl(url)).toBe(true);
  });
});

describe("playableUrlSchema (the post form's and the server's field rule)", () => {
  test("parses to the normalised link", () => {
    expect(playableUrlSchema.parse(" https://youtu.be/jNQXAC9IVRw ")).toBe("https://youtu.be/jNQXAC9IVRw");
  });

  test("refuses with the rule's message", () => {
    const parsed = playableUrlSchema.safeParse("javascript:alert(1)");
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([mediaUrlMessages.not_https]);
    expect(playableUrlSchema.safeParse("https://soundcloud.com/forss/flickermood").error?.issues[0].message).toBe(notPlayableMessage);
  });
});

test("the rules stay cheap to import: react-player's patterns module, which lib/media/playable.ts imports, imports nothing", () => {
  const require = createRequire(import.meta.url);
  const patterns = readFileSync(require.resolve("react-player/patterns"), "utf8");
  expect(patterns).not.toMatch(/\bimport\b|\brequire\(/);
  const source = readFileSync(new URL("../../lib/media/playable.ts", import.meta.url), "utf8");
  expect([...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1])).toEqual([
    "react-player/patterns",
    "./url-rules.ts",
  ]);
});

// Cuepoint as an oEmbed provider (oembed.com, version 1.0): which of our URLs can be embedded, how
// big the frame is, and the answer's JSON with its iframe. Pure: the route (app/oembed/route.ts)
// reads the post and the room, this decides what to say.
import { parseStartTime } from "@/lib/moments/start-time";
import { isUuid } from "@/lib/validation/ids";

/** What a consumer's `url` names: a post (maybe at a time) or a comment (which leads to its post and time). */
export type EmbedTarget = { kind: "post"; slug: string; postId: string; startAt: number | null } | { kind: "moment"; momentId: string };

/** Why a `url` is refused: not given or not a URL (400), another site's (400), or ours but nothing we embed (404). */
export type TargetProblem = "missing" | "garbled" | "foreign" | "unknown";

export const embedPath = (postId: string) => `/embed/p/${postId}`;

/** Pages under this path (and no others) may be framed by any site. */
export const isEmbedPath = (pathname: string) => pathname.startsWith("/embed/");

const postPath = /^\/r\/([a-z0-9-]{3,48})\/p\/([^/]+)\/?$/;
const momentPath = /^\/m\/([^/]+)\/?$/;

/**
 * The post or comment a consumer's `url` names, when it is an address on one of `siteOrigins`:
 * `<site>/r/<slug>/p/<postId>` (with `?t=` as the post page reads it) or `<site>/m/<momentId>`.
 */
export function parseEmbedUrl(
  raw: string | null | undefined,
  siteOrigins: readonly string[],
): { ok: true; target: EmbedTarget } | { ok: false; problem: TargetProblem } {
  if (raw === null || raw === undefined || raw.trim() === "") return { ok: false, problem: "missing" };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: "garbled" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, problem: "garbled" };
  if (url.username || url.password || !siteOrigins.includes(url.origin)) return { ok: false, problem: "foreign" };
  const post = postPath.exec(url.pathname);
  if (post && isUuid(post[2])) {
    return {
      ok: true,
      target: { kind: "post", slug: post[1], postId: post[2].toLowerCase(), startAt: parseStartTime(url.searchParams.get("t")) },
    };
  }
  const moment = momentPath.exec(url.pathname);
  if (moment && isUuid(moment[1])) return { ok: true, target: { kind: "moment", momentId: moment[1].toLowerCase() } };
  return { ok: false, problem: "unknown" };
}

/** The origins a URL may name to be ours: the one the request came to, and the configured site URL. */
export function siteOrigins(requestOrigin: string, configured: string | undefined): string[] {
  const origins = [requestOrigin];
  try {
    if (configured) origins.push(new URL(configured).origin);
  } catch {
    // A site URL that is not a URL adds nothing.
  }
  return [...new Set(origins)];
}

/** A consumer's maxwidth/maxheight: a whole number of pixels, else no limit. */
export function readMaxSize(value: string | null): number | null {
  if (value === null || !/^\d{1,5}$/.test(value.trim())) return null;
  const size = Number(value.trim());
  return size > 0 ? size : null;
}

/** The frame's width when the consumer sets no limit. */
export const defaultWidth = 560;
/** The embed page's own rows around a video: the title line and the comments' timeline. */
const videoChrome = 96;
/** An audio player with the title line and the timeline. */
const audioHeight = 180;
const tallest = 400;
const narrowest = 200;

/**
 * The iframe's size: 560 wide unless the consumer allows less; an audio post 180 high, a video the
 * height of a 16:9 picture at that width plus the title line and timeline, at most 400. Both within
 * maxwidth/maxheight (the page inside fits whatever it is given).
 */
export function embedSize(
  { maxwidth, maxheight }: { maxwidth: number | null; maxheight: number | null },
  audio: boolean,
): { width: number; height: number } {
  const width = Math.max(1, Math.min(defaultWidth, maxwidth ?? defaultWidth));
  const natural = audio ? audioHeight : Math.min(tallest, Math.round((Math.max(width, narrowest) * 9) / 16) + videoChrome);
  return { width, height: Math.max(1, Math.min(natural, maxheight ?? natural)) };
}

/** Text for an HTML attribute value in double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The embed page's address on `origin`, starting at `startAt` when there is one. */
export function embedSrc(origin: string, postId: string, startAt: number | null): string {
  return `${origin}${embedPath(postId)}${startAt !== null && startAt > 0 ? `?t=${startAt}` : ""}`;
}

export function iframeHtml({ src, width, height, title }: { src: string; width: number; height: number; title: string }): string {
  return (
    `<iframe src="${escapeAttribute(src)}" width="${width}" height="${height}" frameborder="0" ` +
    `allow="autoplay; encrypted-media; fullscreen" title="${escapeAttribute(title)}" loading="lazy"></iframe>`
  );
}

export interface EmbeddablePost {
  id: string;
  title: string;
  room: { slug: string; name: string };
  author: { username: string; display_name: string } | null;
  audio: boolean;
  thumbnail: { url: string; width: number; height: number } | null;
}

export interface OembedAnswer {
  type: "rich";
  version: "1.0";
  title: string;
  author_name?: string;
  author_url?: string;
  provider_name: "Cuepoint";
  provider_url: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

/** The oEmbed answer for a public post, framed at `startAt`. */
export function oembedAnswer(
  post: EmbeddablePost,
  { origin, startAt, maxwidth, maxheight }: { origin: string; startAt: number | null; maxwidth: number | null; maxheight: number | null },
): OembedAnswer {
  const { width, height } = embedSize({ maxwidth, maxheight }, post.audio);
  const title = `${post.title} · ${post.room.name}`;
  return {
    type: "rich",
    version: "1.0",
    title: post.title,
    ...(post.author ? { author_name: post.author.display_name, author_url: `${origin}/u/${post.author.username}` } : {}),
    provider_name: "Cuepoint",
    provider_url: `${origin}/`,
    html: iframeHtml({ src: embedSrc(origin, post.id, startAt), width, height, title }),
    width,
    height,
    ...(post.thumbnail
      ? { thumbnail_url: post.thumbnail.url, thumbnail_width: post.thumbnail.width, thumbnail_height: post.thumbnail.height }
      : {}),
  };
}

/** The discovery link's href for a page at `pageUrl` (absolute). */
export function oembedDiscoveryHref(origin: string, pageUrl: string): string {
  return `${origin}/oembed?${new URLSearchParams({ url: pageUrl, format: "json" })}`;
}

/** The request header proxy.ts sets to tell the root layout a page is an embed (no site header). */
export const embedChromeHeader = "x-cuepoint-chrome";

/** This site's origin as the request names it (behind a proxy: the forwarded scheme and host). */
export function requestOrigin(headers: { get(name: string): string | null }, fallback: string): string {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-fA-F:]+\](?::\d{1,5})?$/.test(host)) return fallback;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return `${proto === "https" || proto === "http" ? proto : new URL(fallback).protocol.slice(0, -1)}://${host}`;
}

/** What the oEmbed endpoint says when it cannot answer, and with which status (as the oEmbed spec assigns them). */
export const oembedRefusals = {
  missing: { status: 400, words: "Give the address of a Cuepoint post or comment as ?url=…" },
  garbled: { status: 400, words: "That url isn't a web address — give the address of a Cuepoint post or comment." },
  foreign: { status: 400, words: "Cuepoint embeds only its own posts — that url is on another site." },
  unknown: { status: 404, words: "There's no public post at that address to embed." },
  format: { status: 501, words: "Cuepoint answers oEmbed in JSON only — ask with format=json." },
} as const satisfies Record<TargetProblem | "format", { status: number; words: string }>;

// What any media link must be before anything else looks at it: https, a public host named by
// name, no credentials, at most 2048 characters. Shared by the post form, the server and the embed
// function (Deno imports this file by relative path), so it imports nothing.

export const mediaUrlMaxLength = 2048;

export type MediaUrlProblem = "empty" | "too_long" | "malformed" | "not_https" | "credentials" | "not_public";

export const mediaUrlMessages: Record<MediaUrlProblem, string> = {
  empty: "Paste a link to a track or video.",
  too_long: `Links can be up to ${mediaUrlMaxLength} characters.`,
  malformed: "That isn't a link we can read — paste the full address, starting with https://",
  not_https: "Links must start with https:// (javascript:, data: and http:// links aren't allowed).",
  credentials: "Links can't carry a user name or password — paste the link without them.",
  not_public: "Links must point at a public website, not an IP address or a local name.",
};

export type MediaUrlCheck = { ok: true; url: URL } | { ok: false; problem: MediaUrlProblem; error: string };

const refuse = (problem: MediaUrlProblem): MediaUrlCheck => ({ ok: false, problem, error: mediaUrlMessages[problem] });

const reservedTopLevel = new Set(["localhost", "local", "internal", "localdomain", "home", "lan", "test", "invalid", "example", "onion"]);

// A host is a name with at least one dot and a letter-only top-level label: no IPv4/IPv6 literal,
// no `localhost`, no single-label intranet name. (WHATWG URL parsing has already lowercased it and
// turned numeric forms like 2130706433 or 0x7f.1 into dotted IPv4, which the last label rules out.)
function isPublicHostName(hostname: string): boolean {
  const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (host.startsWith("[")) return false;
  const labels = host.split(".");
  if (labels.length < 2 || labels.some((label) => label.length === 0)) return false;
  const top = labels[labels.length - 1];
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top)) return false;
  return !reservedTopLevel.has(top);
}

/** Parses a media link and applies the rules every link follows, whatever plays it. */
export function checkMediaUrl(input: string): MediaUrlCheck {
  const text = input.trim();
  if (text.length === 0) return refuse("empty");
  if (text.length > mediaUrlMaxLength) return refuse("too_long");
  // control characters and spaces inside a link are how parsers are made to disagree
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(text)) return refuse("malformed");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme && scheme !== "https") return refuse("not_https");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("malformed");
  }
  if (url.protocol !== "https:") return refuse("not_https");
  // https://a.com (no "//" after the scheme) or https:/a.com parse, but are not what anyone typed
  if (!/^https:\/\/[^/]/i.test(text)) return refuse("malformed");
  if (url.username || url.password || /^https:\/\/[^/?#]*@/i.test(text)) return refuse("credentials");
  if (!isPublicHostName(url.hostname)) return refuse("not_public");
  if (url.href.length > mediaUrlMaxLength) return refuse("too_long");
  return { ok: true, url };
}

/** The host of a stored link, for showing where it is from; null when the link breaks the rules (a row the database took as it was). */
export function linkHostname(input: string | null | undefined): string | null {
  if (typeof input !== "string") return null;
  const checked = checkMediaUrl(input);
  return checked.ok ? checked.url.hostname : null;
}

import type { IncomingMessage } from "node:http";
import type { AuthSettings } from "./settings.ts";

/**
 * A config.toml redirect pattern as GoTrue compiles it (a glob with `.` and `/` as separators):
 * `**` matches anything, `*` anything but a separator, `?` one non-separator character.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^./]*";
    else if (char === "?") source += "[^./]";
    else source += char.replace(/[\\^$+.()|[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

const regularHostname = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

/**
 * The host exactly as written (Go's url.Parse keeps it; WHATWG URL would turn `2130706433` or
 * `0x7f.1` into 127.0.0.1, which must not pass as loopback). Lower-cased, without user or port.
 */
function rawHostname(url: string): string {
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(url)?.[1] ?? "";
  const host = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.replace(/:\d*$/, "");
}

const isLoopbackIp = (host: string) => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "[::1]";
const isIp = (host: string) => /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host.startsWith("[");

/** GoTrue's rule: same site as site_url (any port on loopback), a loopback IP, or an allow-list match. */
export function isRedirectAllowed(settings: AuthSettings, redirectUrl: string): boolean {
  if (!redirectUrl || [...redirectUrl].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return false;
  let site: URL;
  try {
    site = new URL(settings.siteUrl);
  } catch {
    return false;
  }
  let target: URL | undefined;
  try {
    target = new URL(redirectUrl);
  } catch {
    if (/^https?:/i.test(redirectUrl)) return false;
  }
  if (target) {
    const isHttp = target.protocol === "http:" || target.protocol === "https:";
    const hostname = rawHostname(redirectUrl);
    const loopback = hostname === "localhost" || isLoopbackIp(hostname);
    if (hostname === rawHostname(settings.siteUrl) && target.protocol === site.protocol && (target.port === site.port || loopback))
      return true;
    if (/^[0-9]+$/.test(hostname)) return false;
    if (isIp(hostname)) return isLoopbackIp(hostname);
    if (isHttp && !regularHostname.test(hostname)) return false;
  }
  const withoutFragment = redirectUrl.split("#")[0];
  return settings.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(withoutFragment));
}

/** Where emails and redirects send people: `redirect_to` when allowed, else the Referer, else site_url. */
export function referrer(req: IncomingMessage, url: URL, settings: AuthSettings): string {
  const asked = String(req.headers.redirect_to ?? "") || url.searchParams.get("redirect_to") || "";
  if (isRedirectAllowed(settings, asked)) return asked;
  const referer = String(req.headers.referer ?? "");
  if (isRedirectAllowed(settings, referer)) return referer;
  return settings.siteUrl;
}

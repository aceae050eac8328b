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

const loopbackNames = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const regularHostname = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

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
    const hostname = target.hostname;
    if (hostname === site.hostname && target.protocol === site.protocol && (target.port === site.port || loopbackNames.has(hostname))) return true;
    if (/^[0-9]+$/.test(hostname)) return false;
    if (hostname === "127.0.0.1" || hostname === "[::1]") return true;
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

// Links people share: a post at a time (with an optional end: a clip) and a comment (`/m/<id>`).

/** 102 → "1m42s", 45 → "45s", 3723 → "1h2m3s", 120 → "2m" — as `?t=` reads it (./start-time.ts). */
export function formatLinkTime(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h ? `${h}h` : "", m ? `${m}m` : "", s || total === 0 ? `${s}s` : ""];
  return parts.join("");
}

/** The site's public address (NEXT_PUBLIC_SITE_URL), else the page's own, without a trailing slash. */
export function siteOrigin(configured: string | undefined, pageOrigin: string): string {
  const base = configured?.trim() || pageOrigin;
  return base.replace(/\/+$/, "");
}

/** A post's link, starting at `start` (whole seconds; none or 0 → the beginning) and, after it, stopping at `end`. */
export function postShareLink(
  origin: string,
  post: { slug: string; id: string },
  range: { start: number | null; end: number | null },
): string {
  const url = `${origin}/r/${encodeURIComponent(post.slug)}/p/${post.id}`;
  const params: string[] = [];
  const start = range.start !== null && range.start >= 1 ? Math.floor(range.start) : null;
  if (start !== null) params.push(`t=${formatLinkTime(start)}`);
  if (range.end !== null && Math.floor(range.end) > (start ?? 0)) params.push(`end=${formatLinkTime(range.end)}`);
  return params.length ? `${url}?${params.join("&")}` : url;
}

/** A comment's (or a reply's) link: the post at its time, the comment highlighted. */
export function momentShareLink(origin: string, momentId: string): string {
  return `${origin}/m/${momentId}`;
}

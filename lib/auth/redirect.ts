/**
 * Where to send someone after signing in: a path on this site only. Anything else — another host,
 * a protocol-relative `//evil.example`, a backslash trick, a `javascript:` URL — falls back to `/`.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || typeof next !== "string") return fallback;
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\\]/.test(next)) return fallback;
  try {
    const resolved = new URL(next, "http://cuepoint.invalid");
    if (resolved.origin !== "http://cuepoint.invalid") return fallback;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}

/** Pages a signed-in person has no reason to stay on. */
export function isAuthPage(pathname: string): boolean {
  return pathname === "/login" || pathname === "/signup";
}

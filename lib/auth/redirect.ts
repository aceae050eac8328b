/** A path a browser resolves on this site: one leading slash, not two, not a slash and a backslash. */
const isOnSitePath = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");

/**
 * Where to send someone after signing in: a path on this site only. Anything else — another host,
 * a protocol-relative `//evil.example`, a backslash trick, a `javascript:` URL — falls back to `/`.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || typeof next !== "string") return fallback;
  if (!isOnSitePath(next)) return fallback;
  if (/[\u0000-\u001f\\]/.test(next)) return fallback;
  try {
    const resolved = new URL(next, "http://cuepoint.invalid");
    if (resolved.origin !== "http://cuepoint.invalid") return fallback;
    const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    // Checked again after normalisation: `/.//evil.example` and `/%2e//evil.example` become
    // `//evil.example`, which a browser reads as another host.
    return isOnSitePath(path) ? path : fallback;
  } catch {
    return fallback;
  }
}

/** Pages a signed-in person has no reason to stay on. */
export function isAuthPage(pathname: string): boolean {
  return pathname === "/login" || pathname === "/signup";
}

/**
 * Where an email link lands after /auth/confirm verified it. `next` is what the template passed:
 * the redirect Supabase Auth kept (a full URL — the app's emailRedirectTo, or site_url when there
 * was none), or a path. A full URL counts only on one of `siteOrigins` (this site), and then only
 * its path, so the person stays here; anything else lands on `/`. A redirect that names
 * /auth/confirm itself (an older link, or an admin tool that passes it) is unwrapped.
 */
export function linkLandingPath(next: string | null | undefined, siteOrigins: readonly string[]): string {
  let value = next ?? "";
  for (let depth = 0; depth < 3; depth++) {
    if (!/^https?:\/\//i.test(value)) break;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return "/";
    }
    if (!siteOrigins.includes(url.origin)) return "/";
    if (url.pathname !== "/auth/confirm") return safeNextPath(`${url.pathname}${url.search}${url.hash}`);
    value = url.searchParams.get("next") ?? "/";
  }
  if (value.startsWith("/auth/confirm")) return safeNextPath(new URL(value, "http://cuepoint.invalid").searchParams.get("next"));
  return safeNextPath(value);
}

/**
 * How close an account's first sign-in is to its creation: Auth stamps both in the one request that
 * makes the account (milliseconds apart); any later sign-in is a new request, seconds later at least.
 */
const firstSignInWindowMs = 2_000;

export interface SignedInUser {
  created_at?: string;
  last_sign_in_at?: string | null;
  app_metadata?: { provider?: string };
}

/**
 * Whether this sign-in made the account: a wallet's first signature creates it and signs it in at
 * once, with names nobody chose yet. (An email account's welcome comes with its confirmation link,
 * /auth/confirm; an account an administrator made is not a wallet's.)
 */
export function isNewWalletAccount(user: SignedInUser): boolean {
  const created = Date.parse(user.created_at ?? "");
  const signedIn = Date.parse(user.last_sign_in_at ?? "");
  return (
    user.app_metadata?.provider === "web3" &&
    Number.isFinite(created) &&
    Number.isFinite(signedIn) &&
    signedIn - created < firstSignInWindowMs
  );
}

/** Where a sign-in on /login or /signup goes: `next`, by way of the welcome step for a wallet's new account. */
export function afterSignInPath(user: SignedInUser, next: string | null | undefined): string {
  const destination = safeNextPath(next);
  return isNewWalletAccount(user) ? `/welcome?next=${encodeURIComponent(destination)}` : destination;
}

import { safeNextPath } from "./redirect";

/**
 * The URL email links bring people back to: the app's /auth/confirm route on this origin, with
 * `next` kept on the site. The email templates (supabase/templates) append the token to it.
 */
export function confirmRedirect(next: string): string {
  const origin = typeof window === "undefined" ? (process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000") : window.location.origin;
  return `${origin}/auth/confirm?next=${encodeURIComponent(safeNextPath(next))}`;
}

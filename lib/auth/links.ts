import { safeNextPath } from "./redirect";

/**
 * The redirect the app gives Supabase Auth for an email link: where the person goes afterwards, on
 * this origin. The email templates (supabase/templates) send the link to /auth/confirm on the site
 * and pass this URL along as `next`; /auth/confirm keeps its path (see linkLandingPath).
 */
export function emailRedirect(
  next: string,
  origin = typeof window === "undefined" ? (process.env.NEXT_PUBLIC_SITE_URL ?? "http://localhost:3000") : window.location.origin,
): string {
  return `${origin}${safeNextPath(next)}`;
}

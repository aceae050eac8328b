// The production build's id names the service worker's cache (public/sw.js), so each deploy starts a
// fresh one and clears the last.
import { readFileSync } from "node:fs";
import path from "node:path";

let cached: string | null | undefined;

/**
 * The id `next build` wrote to .next/BUILD_ID, or null when there is none — in `next dev`, where the
 * worker must not run at all.
 */
export function appBuildId(): string | null {
  if (process.env.NODE_ENV !== "production") return null;
  if (cached === undefined) {
    try {
      const id = readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
      cached = /^[\w-]{1,64}$/.test(id) ? id : null;
    } catch {
      cached = null;
    }
  }
  return cached;
}

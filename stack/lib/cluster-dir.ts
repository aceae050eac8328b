import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import path from "node:path";

/** Where clusters go when the clone itself is out of the postgres OS user's reach. */
export const sharedClusterRoot = "/var/tmp/cuepoint-stack";

/**
 * Whether a user that is neither the owner nor in the group of `dir`'s ancestors (the postgres OS
 * user, when the stack runs as root) can pass through every existing directory down to `dir`.
 */
export function reachableByOthers(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

/**
 * The directory holding the cluster (data, socket, log). Normally `<state dir>/db`. Run as root,
 * PostgreSQL runs as the `postgres` OS user; when that user cannot reach the state dir (a clone under
 * /root or `mktemp -d`), the cluster lives under /var/tmp instead, in a directory named after the
 * state dir's path, so two clones never share a cluster.
 */
export function clusterDir(stateDir: string, { asRoot = process.getuid?.() === 0, reachable = reachableByOthers } = {}): string {
  const resolved = path.resolve(stateDir);
  // The state dir itself is the stack's own (it opens it up for postgres); only its ancestors decide.
  if (!asRoot || reachable(path.dirname(resolved))) return path.join(resolved, "db");
  const hash = createHash("sha256").update(resolved).digest("hex").slice(0, 12);
  const clone = path.basename(path.dirname(resolved)).replace(/[^A-Za-z0-9._-]/g, "_") || "clone";
  return path.join(sharedClusterRoot, `${clone}-${hash}`, "db");
}

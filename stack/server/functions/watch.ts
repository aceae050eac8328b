import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import path from "node:path";

/** Files Deno itself writes next to the functions (its lock and that lock's temp files). */
const ignoredNames = new Set(["node_modules", "deno.lock", ".git", ".DS_Store"]);
const ignored = (name: string) => ignoredNames.has(name) || /^deno\..*\.tmp$/.test(name) || name.endsWith("~");

/**
 * Watches supabase/functions for code changes and reports the first path segment that changed
 * (a function's folder, `_shared`, or a root file such as `.env` or `deno.json`). One watcher per
 * directory, skipping node_modules, instead of a recursive watch that would cover every package.
 */
export function watchFunctions(root: string, onChange: (segment: string, changedAt: number) => void): () => void {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    for (const segment of pending) onChange(segment, lastModified(path.join(root, segment)));
    pending.clear();
  };

  const add = (dir: string) => {
    if (watchers.has(dir) || !isDirectory(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, filename) => {
        if (!filename || ignored(path.basename(filename))) return;
        const full = path.join(dir, filename);
        const relative = path.relative(root, full);
        if (relative.split(path.sep).some(ignored)) return;
        add(full);
        pending.add(relative.split(path.sep)[0]);
        timer ??= setTimeout(flush, 100);
      });
    } catch {
      return; // not a directory, or already gone
    }
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
    let entries: string[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !ignored(entry.name))
        .map((entry) => entry.name);
    } catch {
      // removed meanwhile
    }
    for (const entry of entries) add(path.join(dir, entry));
  };

  add(root);
  return () => {
    if (timer) clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

/**
 * The latest modification time (epoch ms) of a path and, for a folder, everything in it — a
 * removed entry shows as its folder's mtime; a path that is gone counts as changed right now.
 * Events are debounced and may be handled late on a busy machine, so what changed is judged by
 * the files' times, not by when the event arrived: a worker started after them already runs them.
 */
function lastModified(file: string): number {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  let latest = Math.max(stat.mtimeMs, stat.ctimeMs);
  if (!stat.isDirectory()) return latest;
  let entries: string[] = [];
  try {
    entries = readdirSync(file).filter((name) => !ignored(name));
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  for (const entry of entries) latest = Math.max(latest, lastModified(path.join(file, entry)));
  return latest;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

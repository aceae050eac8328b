// First compile of each route in `next dev`: a fresh dev output directory (no compile cache), each
// route requested once, in order; a route's time runs from its request until its HTML and every
// script the HTML names have arrived (Turbopack compiles the client chunks on request too).
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { repoRoot } from "@cuepoint/stack/paths";
import { startNext } from "./server.ts";

/** Next 16 keeps `next dev`'s output (and its compile cache) apart from `next build`'s. */
const devDistDir = path.join(repoRoot, ".next", "dev");

export interface DevCompile {
  route: string;
  status: number;
  seconds: number;
  /** CPU time the dev server spent meanwhile: on a busy machine, steadier than the wall clock. */
  cpuSeconds: number;
  /** The machine's one-minute load average when the route had compiled. */
  loadAverage: number;
}

/** CPU seconds (user + system) used so far by the live processes of a process group (Linux /proc). */
function groupCpuSeconds(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // state ppid pgrp … utime(11) stime(12)
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}

async function timeFirstLoad(origin: string, group: number, route: string): Promise<DevCompile> {
  const cpuBefore = groupCpuSeconds(group);
  const started = performance.now();
  const response = await fetch(`${origin}${route}`, { redirect: "manual" });
  const html = await response.text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => new URL(match[1].replaceAll("&amp;", "&"), origin).href);
  await Promise.all(scripts.map(async (url) => (await fetch(url)).arrayBuffer()));
  return {
    route,
    status: response.status,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: groupCpuSeconds(group) - cpuBefore,
    loadAverage: loadavg()[0],
  };
}

export async function devFirstCompiles(routes: string[], port: number, env: NodeJS.ProcessEnv): Promise<DevCompile[]> {
  rmSync(devDistDir, { recursive: true, force: true });
  const server = await startNext("dev", port, env);
  try {
    const results: DevCompile[] = [];
    for (const route of routes) results.push(await timeFirstLoad(server.origin, server.group, route));
    return results;
  } finally {
    server.stop();
  }
}

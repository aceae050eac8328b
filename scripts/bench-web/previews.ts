// The link-preview pictures' time to first byte, as a chat's unfurler meets them: cold (the first
// request to the route after the server starts: its code, the renderer and its font loaded, then a
// render), warm (each later request renders again: the server keeps no copy), and revalidated (a cache
// asking again with the picture's ETag: 304, no render). Each page's og:image is read from its HTML.
import { performance } from "node:perf_hooks";

export interface PreviewTiming {
  page: string;
  coldMs: number;
  warmMs: number;
  revalidatedMs: number;
  bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Milliseconds until the response's headers arrive (fetch resolves then), and the response. */
async function timeToFirstByte(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const ms = performance.now() - started;
  const body = await response.arrayBuffer();
  return { ms, response, bytes: body.byteLength };
}

export async function previewTimings(origin: string, pages: { label: string; route: string }[], runs = 9): Promise<PreviewTiming[]> {
  const results: PreviewTiming[] = [];
  for (const { label, route } of pages) {
    const html = await (await fetch(`${origin}${route}`)).text();
    const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    if (!image) throw new Error(`${route} names no og:image`);
    const cold = await timeToFirstByte(image);
    if (cold.response.status !== 200 || cold.response.headers.get("content-type") !== "image/png")
      throw new Error(`${image} answered ${cold.response.status} ${cold.response.headers.get("content-type")}`);
    const etag = cold.response.headers.get("etag") ?? "";
    const warm: number[] = [];
    const revalidated: number[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push((await timeToFirstByte(image)).ms);
      const again = await timeToFirstByte(image, { "if-none-match": etag });
      if (again.response.status !== 304) throw new Error(`${image} with its ETag answered ${again.response.status}, not 304`);
      revalidated.push(again.ms);
    }
    results.push({ page: label, coldMs: cold.ms, warmMs: median(warm), revalidatedMs: median(revalidated), bytes: cold.bytes });
  }
  return results;
}

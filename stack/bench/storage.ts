// Storage throughput: upload and download MB/s for a 10 MB file through /storage/v1, from this
// process (the API runs in its own). Run by `npm run bench:stack` against its private stack, or
// directly against a running one (STACK_* env selects it).
import { randomBytes } from "node:crypto";
import { loadConfig } from "../lib/config.ts";
import { serviceRoleKey } from "../lib/keys.ts";

const config = loadConfig();
const base = `http://127.0.0.1:${config.apiPort}/storage/v1`;
const headers = { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` };
const bucket = `fx-st-bench-${process.pid}`;
const fileBytes = 10_000_000;
const rounds = Number(process.env.STORAGE_BENCH_ROUNDS ?? 5);
const file = randomBytes(fileBytes);

async function must(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

async function timed(run: () => Promise<void>): Promise<number> {
  const began = performance.now();
  await run();
  return (performance.now() - began) / 1000;
}

function report(label: string, seconds: number[]): void {
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const best = sorted[0];
  console.log(
    `  ${label.padEnd(34)} ${(fileBytes / 1e6 / median).toFixed(0).padStart(5)} MB/s median   (best ${(fileBytes / 1e6 / best).toFixed(0)} MB/s, ${rounds} runs)`,
  );
}

await must(
  await fetch(`${base}/bucket`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ id: bucket, name: bucket, public: true }),
  }),
  "create bucket",
);
try {
  const raw: number[] = [];
  const multipart: number[] = [];
  const download: number[] = [];
  const publicDownload: number[] = [];
  for (let round = 0; round < rounds; round++) {
    raw.push(
      await timed(async () => {
        await must(
          await fetch(`${base}/object/${bucket}/raw.bin`, {
            method: "POST",
            headers: { ...headers, "Content-Type": "application/octet-stream", "x-upsert": "true" },
            body: file,
          }),
          "raw upload",
        );
      }),
    );
    multipart.push(
      await timed(async () => {
        const form = new FormData();
        form.append("cacheControl", "3600");
        form.append("", new Blob([file], { type: "application/octet-stream" }), "form.bin");
        await must(
          await fetch(`${base}/object/${bucket}/form.bin`, { method: "POST", headers: { ...headers, "x-upsert": "true" }, body: form }),
          "multipart upload",
        );
      }),
    );
    download.push(
      await timed(async () => {
        const body = await (await must(await fetch(`${base}/object/${bucket}/raw.bin`, { headers }), "download")).arrayBuffer();
        if (body.byteLength !== fileBytes) throw new Error(`download returned ${body.byteLength} bytes`);
      }),
    );
    publicDownload.push(
      await timed(async () => {
        const body = await (await must(await fetch(`${base}/object/public/${bucket}/form.bin`), "public download")).arrayBuffer();
        if (body.byteLength !== fileBytes) throw new Error(`public download returned ${body.byteLength} bytes`);
      }),
    );
  }
  console.log(`Storage, one 10 MB file (${fileBytes} bytes), service role, sequential requests:`);
  report("upload (raw body)", raw);
  report("upload (multipart form)", multipart);
  report("download (authenticated route)", download);
  report("download (public URL)", publicDownload);
} finally {
  await fetch(`${base}/bucket/${bucket}/empty`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: "{}",
  });
  await fetch(`${base}/bucket/${bucket}`, { method: "DELETE", headers: { ...headers, "Content-Type": "application/json" }, body: "{}" });
}

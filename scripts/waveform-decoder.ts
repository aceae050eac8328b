// The server's way to compute a file's waveform exactly as the upload form does: the app's own
// lib/media/decode-peaks.ts and lib/media/peaks.ts, run in headless Chromium (Debian's, as the e2e
// tests use), whose decoders read MP3, WAV, AAC/MP4, Ogg, FLAC and WebM. Used by the backfill
// (scripts/media-waveforms.ts) and by the decoding tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type Page, chromium } from "@playwright/test";
import ts from "typescript";

const origin = "http://waveforms.cuepoint.test";
const mediaDir = path.join(import.meta.dirname, "..", "lib", "media");
/** The modules the page loads, by the paths their imports name (decode-peaks.ts imports ./peaks.ts). */
const modules = ["decode-peaks.ts", "peaks.ts"];

export interface WaveformDecoder {
  /** The waveform of a file's bytes, or null when Chromium cannot decode them. */
  peaks(bytes: Uint8Array): Promise<number[] | null>;
  /** The page it decodes in (tests record media there). */
  page: Page;
  close(): Promise<void>;
}

/** The module as the browser runs it: TypeScript's types taken out, nothing else changed. */
function browserModule(file: string): string {
  const source = readFileSync(path.join(mediaDir, file), "utf8");
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
}

export async function openWaveformDecoder(executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"): Promise<WaveformDecoder> {
  const browser: Browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--autoplay-policy=no-user-gesture-required"],
  });
  try {
    const page = await browser.newPage();
    const files = new Map<string, Uint8Array>();
    let next = 0;
    // Everything the page asks for is answered here: the page, the modules and the files — nothing leaves this process.
    await page.route(`${origin}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === "") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>waveforms</title>" });
      if (modules.includes(name)) return route.fulfill({ contentType: "text/javascript", body: browserModule(name) });
      const bytes = files.get(name);
      return bytes ? route.fulfill({ contentType: "application/octet-stream", body: Buffer.from(bytes) }) : route.fulfill({ status: 404 });
    });
    await page.goto(`${origin}/`);
    await page.addScriptTag({
      type: "module",
      content: `import { decodePeaks } from "/decode-peaks.ts"; window.decodePeaks = decodePeaks;`,
    });
    await page.waitForFunction(() => "decodePeaks" in window);
    return {
      page,
      async peaks(bytes) {
        const name = `file-${next++}`;
        files.set(name, bytes);
        try {
          return await page.evaluate(async (url) => {
            const { decodePeaks } = window as unknown as { decodePeaks: typeof import("../lib/media/decode-peaks.ts").decodePeaks };
            const response = await fetch(url);
            return decodePeaks(await response.arrayBuffer());
          }, `${origin}/${name}`);
        } finally {
          files.delete(name);
        }
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

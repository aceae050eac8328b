// Draws the installed app's icons from the site's mark (app/icon.svg) with sharp, into public/icons/
// and app/apple-icon.png. Run it again when the mark changes: `node scripts/app-icons.ts`.
// - icon-192.png, icon-512.png ("any"): the mark as it is, rounded corners on a transparent ground;
// - maskable-512.png: the mark's colour to every edge and the glyph a little smaller, so a
//   launcher's circle, squircle or rounded square (each keeps at least the central circle of 80 %
//   diameter, the "safe zone") never cuts it;
// - apple-icon.png (180 px): full-bleed and opaque, as iOS rounds the corners itself.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const root = path.resolve(import.meta.dirname, "..");
const mark = readFileSync(path.join(root, "app/icon.svg"), "utf8");
const glyph = /<path d="([^"]+)"/.exec(mark)?.[1];
const accent = /<rect [^>]*fill="(#[0-9a-f]{6})"/i.exec(mark)?.[1];
if (!glyph || !accent) throw new Error("app/icon.svg no longer has the rect and path this script expects");

/** The 32-unit glyph, centred and scaled to `share` of the square, on the full-bleed accent colour. */
function fullBleed(share: number): string {
  // The glyph spans x 9–23, y 10–22 of 32: its centre is (16, 16).
  const scale = share;
  const offset = 16 * (1 - scale);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${accent}"/><path transform="translate(${offset} ${offset}) scale(${scale})" d="${glyph}" fill="#fff"/></svg>`;
}

const outputs: { file: string; svg: string; size: number }[] = [
  { file: "public/icons/icon-192.png", svg: mark, size: 192 },
  { file: "public/icons/icon-512.png", svg: mark, size: 512 },
  // The glyph's farthest corner is 9.2 of 32 units from the centre; at 0.85 it is 7.8, well inside the
  // safe circle's radius of 12.8.
  { file: "public/icons/maskable-512.png", svg: fullBleed(0.85), size: 512 },
  { file: "app/apple-icon.png", svg: fullBleed(1), size: 180 },
];

await mkdir(path.join(root, "public/icons"), { recursive: true });
for (const { file, svg, size } of outputs) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(root, file));
  console.log(`${file} (${size}×${size})`);
}

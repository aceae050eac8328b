// The words of a link preview (Open Graph tags and the 1200×630 picture chats show): few, short,
// and only characters the picture's font can draw. Pure, so tests/unit/previews-text.test.ts holds them.
import { fontHas } from "./font-coverage";

/**
 * `text` as one line the preview font can draw: line breaks and runs of spaces become one space,
 * and characters the font lacks (emoji, their joiners and variation selectors, scripts it does
 * not cover) are left out — the renderer would otherwise fetch a font or picture for them.
 */
export function drawableText(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0)!;
    if (/\s/u.test(char)) out += " ";
    else if (fontHas(code)) out += char;
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/** One line of plain text for a meta tag: whitespace collapsed, nothing left out. */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * `text` cut to at most `max` characters (code points, so an emoji is never split), at a word's end
 * when one is near, with "…" standing for the rest. Text that fits comes back as it is.
 */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 1) return "…";
  const head = chars.slice(0, max - 1).join("");
  const space = head.lastIndexOf(" ");
  // A word ending right at the cut is whole; otherwise cut at the last word's end, unless that
  // throws away more than a third of the room (one long word is cut mid-word instead).
  const wordEnds = /\s/u.test(chars[max - 1]);
  const cut = wordEnds || space < Math.floor((max - 1) * 0.66) ? head : head.slice(0, space);
  return `${cut.replace(/[\s,;:.\-–—]+$/u, "")}…`;
}

/** Average advance of the picture font's letters, in em (Geist's lower case measures about 0.46; capitals run wider). */
const letterEm = 0.5;

/**
 * Type for words that must fit `lines` lines of `width` pixels: the largest of `sizes` (descending)
 * at which they fit, at about half an em a letter (and, past one line, some lost to breaking at
 * words). Words that do not fit even at the smallest size are clipped to what it holds, so the
 * renderer never has to cut them mid-word. `extra` letters (quote marks) are kept room for.
 */
export function fitText(
  text: string,
  { width, lines, sizes, extra = 0 }: { width: number; lines: number; sizes: readonly number[]; extra?: number },
): { size: number; text: string } {
  const capacity = (size: number) => Math.floor((width * lines * (lines > 1 ? 0.92 : 1)) / (size * letterEm)) - extra;
  const length = Array.from(text).length;
  for (const size of sizes) if (length <= capacity(size)) return { size, text };
  const smallest = sizes[sizes.length - 1];
  return { size: smallest, text: clip(text, Math.max(1, capacity(smallest))) };
}

/** A short, stable name for some content (FNV-1a, base 36): the same words give the same name, any change another. */
export function contentVersion(parts: readonly (string | number | null | undefined)[]): string {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(parts)) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

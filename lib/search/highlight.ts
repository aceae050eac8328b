// What public.search_content marks in a title or snippet: each matched word between U+E000 and
// U+E001 (characters the database removes from the text first). The page splits on them and
// emphasises the parts in React — the text is never treated as HTML.

export const matchStart = "\uE000";
export const matchEnd = "\uE001";

export interface MarkedPart {
  text: string;
  match: boolean;
}

/** "a \uE000word\uE001 here" → [{a , false}, {word, true}, { here, false}]; stray or unclosed markers are dropped. */
export function markedParts(marked: string): MarkedPart[] {
  const parts: MarkedPart[] = [];
  let match = false;
  let text = "";
  const flush = () => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
    text = "";
  };
  for (const ch of marked) {
    if (ch === matchStart || ch === matchEnd) {
      const next = ch === matchStart;
      if (next !== match) {
        flush();
        match = next;
      }
    } else text += ch;
  }
  flush();
  return parts;
}

/** The text without its markers. */
export function plainText(marked: string): string {
  return marked.replaceAll(matchStart, "").replaceAll(matchEnd, "");
}

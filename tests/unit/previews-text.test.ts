import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { momentPreview, postPreview, roomPreview, type RoomFacts } from "@/lib/previews/card";
import { fontHas, fontRanges } from "@/lib/previews/font-coverage";
import { previewTags } from "@/lib/previews/metadata";
import { allowedThumbnail, sniffImageType } from "@/lib/previews/pictures";
import { clip, contentVersion, drawableText, fitText, oneLine } from "@/lib/previews/text";

/** The code points a TrueType font maps (its cmap's format 4 and 12 subtables). */
function fontCodePoints(path: string): Set<number> {
  const font = readFileSync(path);
  let cmap = 0;
  for (let i = 0; i < font.readUInt16BE(4); i++) {
    const entry = 12 + i * 16;
    if (font.toString("latin1", entry, entry + 4) === "cmap") cmap = font.readUInt32BE(entry + 8);
  }
  const codes = new Set<number>();
  for (let i = 0; i < font.readUInt16BE(cmap + 2); i++) {
    const table = cmap + font.readUInt32BE(cmap + 4 + i * 8 + 4);
    const format = font.readUInt16BE(table);
    if (format === 4) {
      const segments = font.readUInt16BE(table + 6) / 2;
      const ends = table + 14;
      const starts = ends + segments * 2 + 2;
      for (let s = 0; s < segments; s++) {
        const start = font.readUInt16BE(starts + s * 2);
        if (start !== 0xffff) for (let c = start; c <= font.readUInt16BE(ends + s * 2); c++) codes.add(c);
      }
    } else if (format === 12) {
      for (let g = 0; g < font.readUInt32BE(table + 12); g++) {
        const group = table + 16 + g * 12;
        for (let c = font.readUInt32BE(group); c <= font.readUInt32BE(group + 4); c++) codes.add(c);
      }
    }
  }
  return codes;
}

describe("the characters the picture's font draws", () => {
  test("the list is the bundled font's own, code point for code point", () => {
    const inFont = fontCodePoints("node_modules/next/dist/compiled/@vercel/og/Geist-Regular.ttf");
    const listed = new Set<number>();
    for (let i = 0; i < fontRanges.length; i += 2) for (let c = fontRanges[i]; c <= fontRanges[i + 1]; c++) listed.add(c);
    expect([...listed].filter((c) => !inFont.has(c))).toEqual([]);
    expect([...inFont].filter((c) => !listed.has(c))).toEqual([]);
  });

  test("fontHas finds the edges of ranges and nothing between them", () => {
    expect(fontHas(0x20)).toBe(true);
    expect(fontHas(0x7e)).toBe(true);
    expect(fontHas(0x7f)).toBe(false);
    expect(fontHas("é".codePointAt(0)!)).toBe(true);
    expect(fontHas("Ж".codePointAt(0)!)).toBe(true);
    expect(fontHas("🔥".codePointAt(0)!)).toBe(false);
    expect(fontHas("日".codePointAt(0)!)).toBe(false);
  });
});

describe("drawable text", () => {
  test("emoji, their joiners and skin tones, and scripts the font lacks are left out; spaces collapse", () => {
    expect(drawableText("So good 🔥🔥 right here 🙏🏽👨‍👩‍👧")).toBe("So good right here");
    expect(drawableText("❤️ drop at 1:42")).toBe("drop at 1:42");
    expect(drawableText("Café — Привет\n\n  again")).toBe("Café — Привет again");
    expect(drawableText("日本語")).toBe("");
  });

  test("one line for a tag keeps every character", () => {
    expect(oneLine(" a\n\tb  🔥 ")).toBe("a b 🔥");
  });
});

describe("clipping", () => {
  test("text that fits is untouched", () => {
    expect(clip("Short title", 20)).toBe("Short title");
    expect(clip("exactly ten", 11)).toBe("exactly ten");
  });

  test("long text ends at a word with an ellipsis, within the limit", () => {
    const clipped = clip("The quick brown fox jumps over the lazy dog", 20);
    expect(clipped).toBe("The quick brown fox…");
    expect(Array.from(clipped).length).toBeLessThanOrEqual(20);
  });

  test("one long word is cut mid-word rather than thrown away; trailing punctuation goes", () => {
    expect(clip("Supercalifragilisticexpialidocious", 10)).toBe("Supercali…");
    expect(clip("Wait, what, no — really truly", 14)).toBe("Wait, what…");
  });

  test("an emoji is never split in half", () => {
    const clipped = clip("🔥🔥🔥🔥🔥🔥", 4);
    expect(clipped).toBe("🔥🔥🔥…");
    expect(encodeURIComponent(clipped)).toBe(encodeURIComponent("🔥🔥🔥…")); // a lone surrogate would throw
  });
});

describe("type that fits", () => {
  const box = { width: 1000, lines: 2, sizes: [84, 72, 60] as const };
  test("short titles get the biggest size, longer ones step down, whole", () => {
    expect(fitText("Late Night Synths", box)).toEqual({ size: 84, text: "Late Night Synths" });
    expect(fitText("word ".repeat(10).trim(), box)).toEqual({ size: 72, text: "word ".repeat(10).trim() });
  });

  test("words that do not fit at the smallest size are clipped at a word to what it holds", () => {
    const fitted = fitText("word ".repeat(100).trim(), box);
    expect(fitted.size).toBe(60);
    // Two lines of 1000 px at 60 px, half an em a letter, less 8 % for breaking at words: 61 letters.
    expect(Array.from(fitted.text).length).toBeLessThanOrEqual(61);
    expect(fitted.text).toMatch(/^(word )+word…$/);
  });

  test("room is kept for quote marks", () => {
    const one = { width: 330, lines: 1, sizes: [20] };
    expect(fitText("a".repeat(33), one).text).toBe("a".repeat(33));
    expect(fitText("a".repeat(33), { ...one, extra: 2 }).text).toBe(`${"a".repeat(30)}…`);
  });
});

describe("the content's version", () => {
  test("the same words give the same version; any change gives another", () => {
    expect(contentVersion(["a", "b", null])).toBe(contentVersion(["a", "b", null]));
    expect(contentVersion(["a", "b", null])).not.toBe(contentVersion(["a", "b", "c"]));
    expect(contentVersion(["ab", ""])).not.toBe(contentVersion(["a", "b"]));
    expect(contentVersion(["x"])).toMatch(/^[0-9a-z]+$/);
  });
});

const room: RoomFacts = { slug: "night-owls", name: "Night Owls", description: "Late sets\nand long talks", cover: null, gate: null };
const post = {
  id: "0b6b4f0e-5d7a-4c1e-9a55-2f3c4d5e6f70",
  title: "Side B, all of it",
  author: "Ada",
  thumbnail: "https://i.ytimg.com/vi/x/hq.jpg",
};
const moment = { id: "1c7c5f1f-6e8b-4d2f-8b66-3a4d5e6f7a81", body: "The drop 🔥 here", author: "Grace", atSeconds: 102.7 };

describe("what a preview says", () => {
  test("a public room: its name and description, its cover", () => {
    const preview = roomPreview({ ...room, cover: "https://x.supabase.co/cover.png" });
    expect(preview).toMatchObject({ title: "Night Owls", description: "Late sets and long talks", path: "/r/night-owls" });
    expect(preview.card).toMatchObject({
      kind: "room",
      title: "Night Owls",
      detail: "Late sets and long talks",
      pictures: ["https://x.supabase.co/cover.png"],
    });
  });

  test("a gated room: name, gate and members only, on the page it was asked for", () => {
    const preview = roomPreview({ ...room, gate: "Holders of at least 1 CUE on Base" }, `/m/${moment.id}`);
    expect(preview.card).toMatchObject({ kind: "members-only", title: "Night Owls", quote: "Holders of at least 1 CUE on Base" });
    expect(preview.title).toBe("Night Owls · Members only");
    expect(preview.description).toContain("Members only. Holders of at least 1 CUE on Base.");
    expect(preview).toMatchObject({ path: `/m/${moment.id}`, imagePath: "/og/r/night-owls" });
  });

  test("a post: its title, who shared it, its thumbnail, in its room", () => {
    const preview = postPreview(room, post);
    expect(preview.card).toMatchObject({
      kind: "post",
      room: "Night Owls",
      title: "Side B, all of it",
      detail: "Shared by Ada",
      pictures: [post.thumbnail],
    });
    expect(preview.imagePath).toBe(`/og/r/night-owls/p/${post.id}`);
    expect(postPreview(room, { ...post, thumbnail: null }).card.pictures).toEqual([]);
    // The thumbnail first, then the room's cover when the thumbnail does not load.
    expect(postPreview({ ...room, cover: "https://x.supabase.co/c.png" }, post).card.pictures).toEqual([
      post.thumbnail,
      "https://x.supabase.co/c.png",
    ]);
  });

  test("a comment: its words, time and author, its own address; the tags keep the emoji, the picture leaves it out", () => {
    const preview = momentPreview(room, post, moment);
    expect(preview.card).toMatchObject({ kind: "moment", at: "1:42", quote: "The drop here", detail: "Grace", title: "Side B, all of it" });
    expect(preview.title).toBe("Grace at 1:42 of “Side B, all of it”");
    expect(preview.description).toBe("“The drop 🔥 here” — in Night Owls on Cuepoint");
    expect(preview).toMatchObject({ path: `/m/${moment.id}`, imagePath: `/og/m/${moment.id}` });
    expect(momentPreview(room, post, { ...moment, atSeconds: null }).title).toBe("Grace on “Side B, all of it”");
    // A long title is clipped inside its quotes.
    const long = momentPreview(room, { ...post, title: "A very long title ".repeat(8) }, moment).title;
    expect(long).toMatch(/^Grace at 1:42 of “A very long title .+…”$/);
    expect(Array.from(long).length).toBeLessThanOrEqual(70);
    expect(momentPreview(room, post, { ...moment, body: "🔥🔥" }).card.quote).toBe("…");
  });

  test("a long comment is clipped for the picture and the tags", () => {
    const long = momentPreview(room, post, { ...moment, body: "word ".repeat(200) });
    expect(Array.from(long.card.quote!).length).toBeLessThanOrEqual(140);
    expect(long.card.quote!.endsWith("…")).toBe(true);
    expect(Array.from(long.description).length).toBeLessThanOrEqual(200);
    expect(long.description).toMatch(/^“word word .+…” — in Night Owls on Cuepoint$/);
    expect(Array.from(long.title).length).toBeLessThanOrEqual(70);
  });

  test("the version follows what the picture shows", () => {
    expect(postPreview(room, post).version).toBe(postPreview(room, post).version);
    expect(postPreview(room, { ...post, title: "Side A" }).version).not.toBe(postPreview(room, post).version);
    expect(roomPreview({ ...room, gate: "Holders" }).version).not.toBe(roomPreview(room).version);
  });

  test("the tags: absolute URLs, the picture's size and alt, a large X card", () => {
    const preview = postPreview(room, post);
    const tags = previewTags(preview, "https://cuepoint.example");
    expect(tags.openGraph).toMatchObject({
      url: `https://cuepoint.example/r/night-owls/p/${post.id}`,
      siteName: "Cuepoint",
      type: "website",
      images: [{ url: `https://cuepoint.example/og/r/night-owls/p/${post.id}?v=${preview.version}`, width: 1200, height: 630 }],
    });
    expect(tags.twitter).toMatchObject({ card: "summary_large_image", title: "Side B, all of it" });
  });
});

describe("pictures", () => {
  test("only https addresses on the providers' thumbnail hosts", () => {
    expect(allowedThumbnail("https://i.ytimg.com/vi/abc/hqdefault.jpg")).toBe("https://i.ytimg.com/vi/abc/hqdefault.jpg");
    expect(allowedThumbnail("https://i1.sndcdn.com/artworks-1.jpg")).not.toBeNull();
    expect(allowedThumbnail("https://image-cdn-ak.spotifycdn.com/image/ab")).not.toBeNull();
    expect(allowedThumbnail("http://i.ytimg.com/vi/abc/hq.jpg")).toBeNull();
    expect(allowedThumbnail("https://i.ytimg.com.evil.example/x.jpg")).toBeNull();
    expect(allowedThumbnail("https://evilsndcdn.com/x.jpg")).toBeNull();
    expect(allowedThumbnail("https://user@i.ytimg.com/x.jpg")).toBeNull();
    expect(allowedThumbnail("https://i.ytimg.com:8443/x.jpg")).toBeNull();
    expect(allowedThumbnail("https://127.0.0.1/x.jpg")).toBeNull();
    expect(allowedThumbnail("not a url")).toBeNull();
    expect(allowedThumbnail(null)).toBeNull();
  });

  test("the picture's type from its first bytes; anything else is no picture", () => {
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns="))).toBeNull();
    expect(sniffImageType(new Uint8Array([]))).toBeNull();
  });
});

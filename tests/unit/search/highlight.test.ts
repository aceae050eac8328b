import { describe, expect, it } from "vitest";
import { markedParts, plainText } from "@/lib/search/highlight";
import { decodeSearchCursor, encodeSearchCursor } from "@/lib/search/queries";

const s = "\uE000";
const e = "\uE001";

describe("markedParts", () => {
  it("splits a snippet on the database's markers", () => {
    expect(markedParts(`the ${s}bass${e} drop and ${s}Café${e}`)).toEqual([
      { text: "the ", match: false },
      { text: "bass", match: true },
      { text: " drop and ", match: false },
      { text: "Café", match: true },
    ]);
  });

  it("joins neighbouring matches and keeps text without markers whole", () => {
    expect(markedParts(`${s}daft${e}${s} punk${e}!`)).toEqual([
      { text: "daft punk", match: true },
      { text: "!", match: false },
    ]);
    expect(markedParts("<b>not html</b> & stays text")).toEqual([{ text: "<b>not html</b> & stays text", match: false }]);
  });

  it("drops stray or unclosed markers without losing words", () => {
    expect(markedParts(`a${e}b ${s}c`)).toEqual([
      { text: "ab ", match: false },
      { text: "c", match: true },
    ]);
    expect(markedParts("")).toEqual([]);
    expect(plainText(`x ${s}y${e} z`)).toBe("x y z");
  });
});

describe("search cursor", () => {
  it("round-trips a rank and an id", () => {
    const id = "0b2ede71-02ae-48a1-bf34-921ee668f55f";
    expect(decodeSearchCursor(encodeSearchCursor(0.081056945, id))).toEqual({ rank: 0.081056945, id });
    expect(decodeSearchCursor(encodeSearchCursor(1e-7, id))).toEqual({ rank: 1e-7, id });
  });

  it("refuses anything else", () => {
    expect(decodeSearchCursor("not a cursor!")).toBeNull();
    expect(decodeSearchCursor(Buffer.from("x|0b2ede71-02ae-48a1-bf34-921ee668f55f").toString("base64url"))).toBeNull();
    expect(decodeSearchCursor(Buffer.from("0.1|nope").toString("base64url"))).toBeNull();
    expect(decodeSearchCursor(Buffer.from("0.1|0b2ede71-02ae-48a1-bf34-921ee668f55f|x").toString("base64url"))).toBeNull();
  });
});

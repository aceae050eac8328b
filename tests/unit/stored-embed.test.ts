import { describe, expect, it } from "vitest";
import { embedDurationSeconds } from "@/lib/posts/embed-lookup";
import { readStoredEmbed } from "@/lib/posts/stored-embed";

const vimeo = {
  provider: "vimeo",
  provider_name: "Vimeo",
  title: "The New Vimeo Player",
  author: "Vimeo Staff",
  thumbnail_url: "https://i.vimeocdn.com/video/452001751-8216e0571c.jpg",
  duration: 62,
  width: 640,
  height: 360,
};

describe("readStoredEmbed", () => {
  it("keeps stored metadata whose fields all pass", () => {
    expect(readStoredEmbed(vimeo)).toEqual(vimeo);
  });

  it("keeps null fields as null and leaves absent ones absent", () => {
    const embed = readStoredEmbed({ provider: "youtube", title: null, thumbnail_url: null });
    expect(embed).toEqual({ provider: "youtube", title: null, thumbnail_url: null });
    expect(embed && "author" in embed).toBe(false);
  });

  it("drops fields it does not know", () => {
    expect(readStoredEmbed({ ...vimeo, html: "<iframe src=x></iframe>" })).toEqual(vimeo);
  });

  it.each([
    ["not an object", "vimeo"],
    ["an array", [vimeo]],
    ["null", null],
    ["no provider", { ...vimeo, provider: undefined }],
    ["a provider over 40 characters", { ...vimeo, provider: "p".repeat(41) }],
    ["a title over 300 characters", { ...vimeo, title: "t".repeat(301) }],
    ["an author over 200 characters", { ...vimeo, author: "a".repeat(201) }],
    ["a provider name over 80 characters", { ...vimeo, provider_name: "n".repeat(81) }],
    ["a title that is not text", { ...vimeo, title: 42 }],
    ["an http thumbnail", { ...vimeo, thumbnail_url: "http://i.vimeocdn.com/video/1.jpg" }],
    ["a javascript: thumbnail", { ...vimeo, thumbnail_url: "javascript:alert(1)" }],
    ["a thumbnail that is not a URL", { ...vimeo, thumbnail_url: "not a url" }],
    ["a thumbnail URL over 2048 characters", { ...vimeo, thumbnail_url: `https://example.com/${"x".repeat(2048)}` }],
    ["a duration that is text", { ...vimeo, duration: "62" }],
    ["an infinite width", { ...vimeo, width: Number.POSITIVE_INFINITY }],
    ["a height that is not a number", { ...vimeo, height: Number.NaN }],
  ])("is null for %s", (_case, value) => {
    expect(readStoredEmbed(value)).toBeNull();
  });
});

describe("embedDurationSeconds", () => {
  it("is the provider's length of the media, to store as the post's", () => {
    expect(embedDurationSeconds(vimeo)).toBe(62);
    expect(embedDurationSeconds({ provider: "wistia", duration: 16.43 })).toBe(16.43);
  });

  it("is null when the provider gave none, or a length no post may have", () => {
    expect(embedDurationSeconds({ provider: "youtube" })).toBeNull();
    expect(embedDurationSeconds({ provider: "youtube", duration: null })).toBeNull();
    expect(embedDurationSeconds({ provider: "vimeo", duration: 0 })).toBeNull();
    expect(embedDurationSeconds({ provider: "twitch", duration: 172_800.5 })).toBeNull();
    expect(embedDurationSeconds({ provider: "twitch", duration: 172_800 })).toBe(172_800);
  });
});

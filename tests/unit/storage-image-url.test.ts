// lib/storage/image-url.ts (and fluid-image.ts, covers' widths): the URLs and srcsets avatars and covers are asked for with, and the
// switch that falls back to the original file where the Supabase plan has no image transformations.
import { describe, expect, test } from "vitest";
import { avatarImage } from "../../lib/avatars.ts";
import { parsePublicEnv } from "../../lib/env.ts";
import { roomCoverImage } from "../../lib/rooms/covers.ts";
import { fluidImage } from "../../lib/storage/fluid-image.ts";
import { fixedSizeImage, renderedImageUrl, transformsEnabled } from "../../lib/storage/image-url.ts";

const local = { supabaseUrl: "http://127.0.0.1:54321", transforms: true };
const off = { supabaseUrl: "https://abc.supabase.co", transforms: false };

describe("URL shape", () => {
  test("a resized copy is storage-js getPublicUrl's /render/image/public/ URL, the path's segments encoded", () => {
    expect(renderedImageUrl(local.supabaseUrl, "avatars", "u1/my photo#1.png", 48, 48)).toBe(
      "http://127.0.0.1:54321/storage/v1/render/image/public/avatars/u1/my%20photo%231.png?width=48&height=48&resize=cover",
    );
    expect(renderedImageUrl(local.supabaseUrl, "room-covers", "r/c.jpg", 320)).toBe(
      "http://127.0.0.1:54321/storage/v1/render/image/public/room-covers/r/c.jpg?width=320&resize=cover",
    );
  });
});

describe("fixed sizes (avatars)", () => {
  test("src is the drawn size; srcset offers 1x, 2x and 3x copies cropped to the square", () => {
    const image = avatarImage("u1/a.png", 24, local)!;
    const url = (side: number) =>
      `http://127.0.0.1:54321/storage/v1/render/image/public/avatars/u1/a.png?width=${side}&height=${side}&resize=cover`;
    expect(image.src).toBe(url(24));
    expect(image.srcSet).toBe(`${url(24)} 1x, ${url(48)} 2x, ${url(72)} 3x`);
    expect(avatarImage(null, 24, local)).toBeNull();
    expect(avatarImage("", 24, local)).toBeNull();
  });

  test("densities past Storage's 2,000 px limit are left out", () => {
    const densities = fixedSizeImage("room-covers", "r/c.jpg", { width: 800, height: 400 }, local)
      .srcSet!.split(", ")
      .map((entry) => entry.split(" ")[1]);
    expect(densities).toEqual(["1x", "2x"]);
  });

  test("with transformations off: the original public URL and no srcset", () => {
    expect(avatarImage("u1/a.png", 24, off)).toEqual({ src: "https://abc.supabase.co/storage/v1/object/public/avatars/u1/a.png" });
    expect(roomCoverImage("r/c.jpg", { square: 64 }, off)).toEqual({
      src: "https://abc.supabase.co/storage/v1/object/public/room-covers/r/c.jpg",
    });
    expect(roomCoverImage("r/c.jpg", { maxWidth: 600, aspect: 3 }, off)).toEqual({
      src: "https://abc.supabase.co/storage/v1/object/public/room-covers/r/c.jpg",
    });
  });
});

describe("fluid widths (covers)", () => {
  test("width descriptors from 160 px to three times the widest drawn size, each cropped to the aspect", () => {
    const image = fluidImage("room-covers", "r/c.jpg", { maxWidth: 320, aspect: 3 }, local);
    const entries = image.srcSet!.split(", ").map((entry) => entry.split(" "));
    expect(entries.map(([, descriptor]) => descriptor)).toEqual(["160w", "320w", "480w", "640w", "960w"]);
    expect(entries.map(([url]) => new URL(url).searchParams.get("height"))).toEqual(["53", "107", "160", "213", "320"]);
    expect(new URL(image.src).searchParams.get("width")).toBe("320");
  });

  test("never past 2,000 px; without an aspect the height follows the picture", () => {
    const image = roomCoverImage("r/c.jpg", { maxWidth: 1000 }, local)!;
    const widths = image.srcSet!.split(", ").map((entry) => entry.split(" ")[1]);
    expect(widths.at(-1)).toBe("2000w");
    expect(new URL(image.src).searchParams.has("height")).toBe(false);
  });

  test("a square cover thumbnail is a fixed size", () => {
    expect(roomCoverImage("r/c.jpg", { square: 48 }, local)!.srcSet).toMatch(/width=144&height=144&resize=cover 3x$/);
  });
});

describe("the switch", () => {
  test("true or false when set; unset, on for a local backend only", () => {
    expect(transformsEnabled("true", "https://abc.supabase.co")).toBe(true);
    expect(transformsEnabled("false", "http://127.0.0.1:54321")).toBe(false);
    expect(transformsEnabled(undefined, "http://127.0.0.1:54321")).toBe(true);
    expect(transformsEnabled(undefined, "http://localhost:54321")).toBe(true);
    expect(transformsEnabled(undefined, "https://abc.supabase.co")).toBe(false);
  });

  test("any other value is a configuration error that says what to set", () => {
    const base = { NEXT_PUBLIC_SUPABASE_URL: "http://127.0.0.1:54321", NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "k" };
    expect(() => parsePublicEnv({ ...base, NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS: "yes" })).toThrow(
      'NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS must be true or false, not "yes"',
    );
    expect(() => parsePublicEnv({ ...base, NEXT_PUBLIC_STORAGE_IMAGE_TRANSFORMS: "false" })).not.toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { mediaArtwork } from "@/lib/player/artwork";
import { mediaSessionOf, positionState } from "@/lib/player/media-session";

describe("the lock screen's position", () => {
  it("holds a position within a known, positive duration", () => {
    expect(positionState(12.5, 40, 1)).toEqual({ position: 12.5, duration: 40, playbackRate: 1 });
    expect(positionState(41, 40, 1.25)).toEqual({ position: 40, duration: 40, playbackRate: 1.25 });
    expect(positionState(-1, 40, 1)).toEqual({ position: 0, duration: 40, playbackRate: 1 });
    expect(positionState(Number.NaN, 40, 0)).toEqual({ position: 0, duration: 40, playbackRate: 1 });
  });

  it("has none while the length is unknown or endless", () => {
    expect(positionState(3, null, 1)).toBeNull();
    expect(positionState(3, Number.POSITIVE_INFINITY, 1)).toBeNull();
    expect(positionState(3, 0, 1)).toBeNull();
  });

  it("finds no media session where the browser has none", () => {
    expect(mediaSessionOf(undefined)).toBeNull();
    expect(mediaSessionOf({} as Navigator)).toBeNull();
  });
});

describe("the lock screen's picture", () => {
  const config = { supabaseUrl: "http://127.0.0.1:54321", transforms: true };
  it("is the post's own thumbnail when it has one", () => {
    expect(mediaArtwork("https://i.ytimg.com/vi/x/hq.jpg", "room/cover.png", config)).toEqual([{ src: "https://i.ytimg.com/vi/x/hq.jpg" }]);
  });

  it("is the room's cover in square sizes, else its original file", () => {
    const pictures = mediaArtwork(null, "r1/cover one.png", config);
    expect(pictures.map((picture) => picture.sizes)).toEqual(["96x96", "192x192", "256x256", "512x512"]);
    expect(pictures[1].src).toBe(
      "http://127.0.0.1:54321/storage/v1/render/image/public/room-covers/r1/cover%20one.png?width=192&height=192&resize=cover",
    );
    expect(mediaArtwork(undefined, "r1/c.png", { ...config, transforms: false })).toEqual([
      { src: "http://127.0.0.1:54321/storage/v1/object/public/room-covers/r1/c.png" },
    ]);
    expect(mediaArtwork(null, null, config)).toEqual([]);
  });
});

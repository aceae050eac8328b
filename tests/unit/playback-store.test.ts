import { describe, expect, it, vi } from "vitest";
import { createPlaybackStore } from "../../components/moments/playback-store";

/** A media element as the store uses it: events, time, readiness, play. */
function fakeMedia(readyState: number) {
  const media = Object.assign(new EventTarget(), {
    readyState,
    currentTime: 0,
    duration: 120,
    paused: true,
    play: vi.fn(async () => undefined),
  });
  media.play.mockImplementation(async () => {
    media.paused = false;
  });
  return media;
}

describe("playback store", () => {
  it("has not been sought until something seeks, and then says so to its listeners, even at the time it is already at", () => {
    const store = createPlaybackStore(null);
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.sought()).toBe(false);
    store.seek(0, { play: true });
    expect(store.sought()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    store.seek(0);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("keeps a seek asked before the player loaded and applies it, playing when asked, once the media can seek", () => {
    const store = createPlaybackStore(null);
    store.seek(42, { play: true });
    const media = fakeMedia(0);
    store.attach(media as unknown as HTMLMediaElement);
    expect(media.currentTime).toBe(0);
    expect(media.play).not.toHaveBeenCalled();
    media.readyState = 1;
    media.dispatchEvent(new Event("loadedmetadata"));
    expect(media.currentTime).toBe(42);
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(store.get()).toMatchObject({ time: 42, duration: 120 });
  });

  it("seeks an attached, ready media element at once, without playing it unless asked", () => {
    const store = createPlaybackStore(300);
    const media = fakeMedia(4);
    store.attach(media as unknown as HTMLMediaElement);
    store.seek(10);
    expect(media.currentTime).toBe(10);
    expect(media.play).not.toHaveBeenCalled();
    expect(store.get()).toMatchObject({ time: 10, duration: 300 });
  });
});

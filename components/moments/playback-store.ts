// The post's playback state, apart from the hooks that read it (./playback.tsx): a page that only
// reads playback (a room page's "here now") does not load the store that follows a media element.

/**
 * Where the post's player is: current time, duration, playing, and a seek. The player (loaded after
 * first paint) attaches its media element; markers, the list and the composer read from here and
 * seek through here, without loading the player any earlier. A seek before the player is ready is
 * kept and applied once the media can seek.
 */
export interface PlaybackSnapshot {
  time: number;
  /** Seconds, or null until known (the post's stored duration, else the media's). */
  duration: number | null;
  playing: boolean;
}

type Media = HTMLMediaElement;

export interface PlaybackStore {
  get(): PlaybackSnapshot;
  subscribe(listener: () => void): () => void;
  /** The player's media element (react-player forwards its ref to it), or null when it goes. */
  attach(media: Media | null): void;
  seek(seconds: number, options?: { play?: boolean }): void;
  /** The attached media element (null until the player has loaded): for code that drives it, as a session does. */
  media(): Media | null;
  /** Has anything sought (played, jumped to a moment)? A player that waits to be played loads then. */
  sought(): boolean;
  /** The duration to show when the media plays another post (null: the media's own). */
  setKnownDuration(seconds: number | null): void;
}

export function createPlaybackStore(knownDuration: number | null): PlaybackStore {
  let snapshot: PlaybackSnapshot = { time: 0, duration: knownDuration, playing: false };
  let media: Media | null = null;
  let pending: { seconds: number; play: boolean } | null = null;
  let sought = false;
  let detach = () => {};
  const listeners = new Set<() => void>();

  const notify = () => {
    for (const listener of listeners) listener();
  };
  const set = (next: Partial<PlaybackSnapshot>) => {
    const merged = { ...snapshot, ...next };
    if (merged.time === snapshot.time && merged.duration === snapshot.duration && merged.playing === snapshot.playing) return;
    snapshot = merged;
    notify();
  };
  const mediaDuration = (element: Media) => (Number.isFinite(element.duration) && element.duration > 0 ? element.duration : null);
  const apply = (element: Media) => {
    if (!pending || element.readyState < 1) return;
    const { seconds, play } = pending;
    pending = null;
    element.currentTime = seconds;
    if (play) element.play()?.catch(() => undefined);
  };

  return {
    get: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attach(element) {
      if (element === media) return;
      detach();
      media = element;
      if (!element) return;
      const sync = () => {
        apply(element);
        set({
          time: pending ? pending.seconds : element.currentTime,
          duration: knownDuration ?? mediaDuration(element),
          playing: !element.paused,
        });
      };
      const events = ["timeupdate", "durationchange", "loadedmetadata", "play", "pause", "seeking", "seeked", "ended"];
      for (const event of events) element.addEventListener(event, sync);
      detach = () => {
        for (const event of events) element.removeEventListener(event, sync);
        detach = () => {};
      };
      sync();
      notify(); // what follows the element itself (a clip's stop) learns of it now
    },
    media: () => media,
    sought: () => sought,
    setKnownDuration(seconds) {
      knownDuration = seconds;
      set({ duration: knownDuration ?? (media ? mediaDuration(media) : null) });
    },
    seek(seconds, { play = false } = {}) {
      pending = { seconds, play };
      if (!sought) {
        sought = true;
        if (snapshot.time === seconds) notify(); // `set` below notifies only on a change of time
      }
      set({ time: seconds });
      if (media) apply(media);
    },
  };
}

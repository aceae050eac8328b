// The lock screen's and the headset's controls (the Media Session API): what plays, the buttons that
// move it, and where it is. Every part is feature-detected: where the API is missing (or an action
// is unknown to the browser), nothing happens and nothing breaks.

export interface MediaSessionPicture {
  src: string;
  /** "96x96"; absent when the picture's size is not known (a provider's thumbnail, an original file). */
  sizes?: string;
  type?: string;
}

export interface MediaSessionSetup {
  title: string;
  /** The line under the title: the room, or "Following Ada" in a session someone else hosts. */
  artist: string;
  album: string;
  artwork: MediaSessionPicture[];
}

export type MediaSessionHandlers = Partial<Record<MediaSessionAction, (details: MediaSessionActionDetails) => void>>;

/** The actions a page may set; each one not given is cleared, so a follower's lock screen offers no seeking. */
const actions: MediaSessionAction[] = ["play", "pause", "stop", "seekbackward", "seekforward", "seekto", "previoustrack", "nexttrack"];

/** The page's media session, or null where the browser has none. */
export function mediaSessionOf(nav: Navigator | undefined = globalThis.navigator): MediaSession | null {
  return nav && "mediaSession" in nav && nav.mediaSession ? nav.mediaSession : null;
}

function setHandler(session: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
  try {
    session.setActionHandler(action, handler);
  } catch {
    // An action this browser does not know (it throws a TypeError): left out.
  }
}

/** Sets what plays (when it changed) and which buttons do what. */
export function setMediaSession(session: MediaSession, setup: MediaSessionSetup, handlers: MediaSessionHandlers): void {
  const current = session.metadata;
  const same =
    current &&
    current.title === setup.title &&
    current.artist === setup.artist &&
    current.album === setup.album &&
    current.artwork.length === setup.artwork.length &&
    current.artwork.every((picture, index) => picture.src === new URL(setup.artwork[index].src, location.href).href);
  if (!same && typeof MediaMetadata === "function") session.metadata = new MediaMetadata(setup);
  for (const action of actions) setHandler(session, action, handlers[action] ?? null);
}

/** Clears everything the page set: the lock screen stops offering this page's controls. */
export function clearMediaSession(session: MediaSession): void {
  session.metadata = null;
  for (const action of actions) setHandler(session, action, null);
  session.playbackState = "none";
  try {
    session.setPositionState?.();
  } catch {
    // Nothing to clear.
  }
}

/**
 * Where playback is, as the Media Session wants it: a finite, positive duration, a position within
 * it and a rate that is not zero; null when the duration is not known (a stream, or not loaded yet).
 */
export function positionState(time: number, duration: number | null, rate: number): MediaPositionState | null {
  if (duration === null || !Number.isFinite(duration) || duration <= 0) return null;
  const position = Math.min(duration, Math.max(0, Number.isFinite(time) ? time : 0));
  return { duration, position, playbackRate: Number.isFinite(rate) && rate > 0 ? rate : 1 };
}

/** Tells the media session where playback is and whether it plays. */
export function reportPosition(session: MediaSession, state: { time: number; duration: number | null; rate: number; playing: boolean }) {
  session.playbackState = state.playing ? "playing" : "paused";
  const position = positionState(state.time, state.duration, state.rate);
  try {
    if (position) session.setPositionState?.(position);
  } catch {
    // A browser that disagrees with a value (a duration changing under it) keeps the last one.
  }
}

/** The media element's events after which the position the session holds is out of date. */
export const positionEvents = ["play", "pause", "playing", "seeked", "ratechange", "durationchange", "loadedmetadata", "ended", "emptied"];

/** What position tracking reads of the page's playback (components/moments/playback-store.ts has it). */
export interface TrackedPlayback {
  subscribe(listener: () => void): () => void;
  media(): HTMLMediaElement | null;
  get(): { time: number; duration: number | null; playing: boolean };
}

/**
 * Keeps the media session's position and state current: on each of the media element's events that
 * make it stale (play, pause, a seek, a rate or duration change), whichever element the page's
 * player has now. `override` lets a page report what it holds to be true (a session's own state).
 * Returns the stop.
 */
export function trackPosition(
  session: MediaSession,
  playback: TrackedPlayback,
  override?: () => Partial<{ time: number; duration: number | null; rate: number; playing: boolean }>,
): () => void {
  let media: HTMLMediaElement | null = null;
  const report = () => {
    const snapshot = playback.get();
    reportPosition(session, {
      time: media ? media.currentTime : snapshot.time,
      duration: snapshot.duration,
      rate: media ? media.playbackRate : 1,
      playing: media ? !media.paused : snapshot.playing,
      ...override?.(),
    });
  };
  const follow = () => {
    const next = playback.media();
    if (next === media) return;
    for (const event of positionEvents) media?.removeEventListener(event, report);
    media = next;
    for (const event of positionEvents) media?.addEventListener(event, report);
    report();
  };
  const unsubscribe = playback.subscribe(follow);
  follow();
  report();
  return () => {
    unsubscribe();
    for (const event of positionEvents) media?.removeEventListener(event, report);
    media = null;
  };
}

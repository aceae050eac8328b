import { type CorrectionMode, correctionModeOf, defaultCorrectionMode } from "./correction";

/**
 * Each listener's own say in how their player follows the session (./correction.ts): the mode,
 * kept in this browser (localStorage) so it holds on every session page, and "Resync", a request
 * the player answers by jumping to the live position at once. A plain store: the page's toggle and
 * button write it, the session player reads it (useSyncExternalStore / subscribe).
 */

const storageKey = "cuepoint:listen-sync";

/**
 * Set to "1" (localStorage `cuepoint:listen-baseline`), the page plays as it did before the
 * preloaded next player and the listener's correction modes: one player whose file changes, and
 * the drift controller's first policy. `npm run bench:sync` runs some followers so, to measure both
 * in one run; nothing in the product sets it.
 */
const baselineKey = "cuepoint:listen-baseline";

type Listener = () => void;

const listeners = new Set<Listener>();
const resyncListeners = new Set<Listener>();
let mode: CorrectionMode | null = null;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage refused (a privacy setting): the choice lasts as long as the page
  }
}

/** The listener's mode: what they chose in this browser, else smooth. */
export function syncMode(): CorrectionMode {
  mode ??= correctionModeOf(storage()?.getItem(storageKey));
  return mode;
}

/** On the server (and before hydration): the default. */
export const serverSyncMode = (): CorrectionMode => defaultCorrectionMode;

export function setSyncMode(next: CorrectionMode): void {
  mode = correctionModeOf(next);
  try {
    storage()?.setItem(storageKey, mode);
  } catch {
    // full or refused: kept for this page
  }
  for (const listener of listeners) listener();
}

export function subscribeSyncMode(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "Resync": the player jumps to the live position now. */
export function requestResync(): void {
  for (const listener of resyncListeners) listener();
}

export function onResync(listener: Listener): () => void {
  resyncListeners.add(listener);
  return () => resyncListeners.delete(listener);
}

/** Whether this page plays the way it did before preloading and correction modes (see `baselineKey`). */
export function playsBaseline(): boolean {
  return storage()?.getItem(baselineKey) === "1";
}

"use client";

import { useEffect, useRef, useState } from "react";
import { lazyComponent } from "@/components/lazy";
import type { KeyPress, PlayerCommand } from "@/lib/player/keys";

/** What a page's shortcuts and lock-screen controls do, loaded after first paint (its own chunk). */
export interface PlayerKeysRuntime {
  /** The keymap (lib/player/keys.ts: playerCommand). */
  command(press: KeyPress): PlayerCommand | null;
  /** Runs a command and answers what a screen reader hears. */
  run(command: PlayerCommand): string;
  /** Ends the lock screen's controls (the page is leaving). */
  dispose(): void;
  /** What plays, or who may move it, changed: the lock screen is told again. */
  update?(): void;
}

const KeyHelp = lazyComponent(() => import("./key-help").then((module) => module.KeyHelp));

/** Starts the runtime once the page is idle (the lock screen's controls are set then), or on the first shortcut. */
const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(run, { timeout: 4000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 1500);
  return () => clearTimeout(id);
};

/** Keys that scroll the page when nothing focused takes them. */
const scrolling = [" ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];

/**
 * The player's keyboard shortcuts (lib/player/keys.ts) and a polite live region that says what each
 * did. Their code (the keymap too) arrives when the page is first idle; a press before then is kept
 * and run once it has (a scrolling key on the page itself does not scroll meanwhile). `?` opens the help.
 */
export function PlayerKeys({
  start,
  inSession = false,
  version = "",
}: {
  start: () => Promise<PlayerKeysRuntime>;
  /** A listening session's page: `,`/`.` move through its queue. */
  inSession?: boolean;
  /** Changes whenever what the lock screen shows should be set again (another post, another host). */
  version?: string;
}) {
  const [message, setMessage] = useState("");
  const [help, setHelp] = useState(false);
  const helpOpen = useRef(false);
  const opener = useRef<HTMLElement | null>(null);
  const runtime = useRef<Promise<PlayerKeysRuntime> | null>(null);
  const startRef = useRef(start);
  useEffect(() => {
    startRef.current = start;
  });

  useEffect(() => {
    let live = true;
    let loaded: PlayerKeysRuntime | null = null;
    const load = () => (runtime.current ??= startRef.current().then((ready) => (loaded = ready)));
    const cancelIdle = whenIdle(() => void load());
    const act = (keys: PlayerKeysRuntime, press: KeyPress & { repeat: boolean }, event?: KeyboardEvent) => {
      const command = keys.command(press);
      if (!command || !live || helpOpen.current) return;
      event?.preventDefault();
      if (press.repeat && command.kind !== "seekBy" && command.kind !== "volumeBy") return;
      if (command.kind === "help") {
        opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        helpOpen.current = true;
        return setHelp(true);
      }
      const said = keys.run(command);
      // The same words again (a second "Volume 60%") are a change too: a screen reader says them again.
      if (said) setMessage((before) => (before === said ? `${said}\u00a0` : said));
    };
    const onKey = (event: KeyboardEvent) => {
      if (helpOpen.current) return;
      if (loaded) return act(loaded, event, event);
      const { key, ctrlKey, metaKey, altKey, shiftKey, defaultPrevented, target, repeat } = event;
      if (ctrlKey || metaKey || altKey) return;
      const press = { key, ctrlKey, metaKey, altKey, shiftKey, defaultPrevented, target, repeat };
      if (scrolling.includes(key) && (target === document.body || target === document.documentElement)) event.preventDefault();
      void load().then((keys) => act(keys, press));
    };
    window.addEventListener("keydown", onKey);
    return () => {
      live = false;
      cancelIdle();
      window.removeEventListener("keydown", onKey);
      void runtime.current?.then((loaded) => loaded.dispose());
    };
  }, []);

  useEffect(() => {
    void runtime.current?.then((loaded) => loaded.update?.());
  }, [version]);

  const closeHelp = () => {
    helpOpen.current = false;
    setHelp(false);
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
  };

  return (
    <>
      <p role="status" className="sr-only" data-player-announcer="">
        {message}
      </p>
      {help ? <KeyHelp onClose={closeHelp} inSession={inSession} /> : null}
    </>
  );
}

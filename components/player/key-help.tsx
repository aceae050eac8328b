"use client";

import { useEffect, useId, useRef } from "react";
import { Button } from "@/components/ui/button";

/** Every shortcut, in the order the help lists them (lib/player/keys.ts maps them). */
function shortcuts(inSession: boolean): Array<{ keys: string[]; names: string; does: string }> {
  return [
    { keys: ["Space", "K"], names: "Space or K", does: "Play or pause" },
    { keys: ["J", "L"], names: "J or L", does: "Back or forward 10 seconds" },
    { keys: ["←", "→"], names: "Left or right arrow", does: "Back or forward 5 seconds" },
    { keys: ["↑", "↓"], names: "Up or down arrow", does: "Volume up or down" },
    { keys: ["M"], names: "M", does: "Mute or unmute" },
    { keys: ["0", "9"], names: "0 to 9", does: "Jump to 0%, 10%, … 90% of the track" },
    inSession
      ? { keys: [",", "."], names: "Comma or period", does: "Previous or next in the queue (the host)" }
      : { keys: [",", "."], names: "Comma or period", does: "Previous or next comment" },
    { keys: ["C"], names: "C", does: "Comment at the current time" },
    { keys: ["?"], names: "Question mark", does: "Show these shortcuts" },
  ];
}

/**
 * The list of the player's shortcuts, as a modal dialog (the page behind is inert while it is open):
 * Escape or "Close" closes it, and the page gives the focus back to where it was. Loaded on the first `?`.
 */
export function KeyHelp({ onClose, inSession }: { onClose: () => void; inSession: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    return () => element.close();
  }, []);
  // Closed first, so the page behind is no longer inert when the focus goes back to it.
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-line bg-raised p-0 text-ink shadow-xl backdrop:bg-black/50"
    >
      <div className="flex flex-col gap-4 p-4 sm:p-5">
        <div className="flex items-center justify-between gap-3">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            Keyboard shortcuts
          </h2>
          <Button variant="ghost" className="min-h-11" onClick={close}>
            Close
          </Button>
        </div>
        <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2 text-sm">
          {shortcuts(inSession).map(({ keys, names, does }) => (
            <div key={names} className="contents">
              <dt className="flex items-center gap-1 whitespace-nowrap">
                <span className="sr-only">{names}</span>
                {keys.map((key, index) => (
                  <span key={key} aria-hidden="true" className="flex items-center gap-1">
                    {index > 0 ? <span className="text-muted">{names.startsWith("0") ? "–" : "/"}</span> : null}
                    <kbd className="min-w-7 rounded-md border border-line bg-surface px-1.5 py-0.5 text-center font-mono text-xs">
                      {key}
                    </kbd>
                  </span>
                ))}
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-muted">Shortcuts rest while you type in a field.</p>
      </div>
    </dialog>
  );
}

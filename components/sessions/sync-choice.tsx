"use client";

import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { type CorrectionMode, correctionModes } from "@/lib/sessions/correction";
import { requestResync, serverSyncMode, setSyncMode, subscribeSyncMode, syncMode } from "@/lib/sessions/sync-choice";

const labels: Record<CorrectionMode, { name: string; hint: string }> = {
  smooth: { name: "Smooth", hint: "Catches up gently, without a jump you'd hear." },
  strict: { name: "Strict", hint: "Stays tighter with the host, skipping a little when it must." },
};

/**
 * How this person's player keeps in step with the host (lib/sessions/correction.ts), kept in this
 * browser, and "Resync" to jump to the live position now. Quiet on purpose: most people never need it.
 */
export function SyncChoice() {
  const mode = useSyncExternalStore(subscribeSyncMode, syncMode, serverSyncMode);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <fieldset className="flex items-center gap-2">
        <legend className="float-left mr-1 text-muted">Keep in step</legend>
        <div className="flex rounded-lg border border-line p-0.5">
          {correctionModes.map((option) => (
            <label
              key={option}
              className="flex min-h-9 cursor-pointer items-center rounded-md px-2.5 text-sm has-[:checked]:bg-line has-[:checked]:font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent"
            >
              <input
                type="radio"
                name="sync-mode"
                value={option}
                checked={mode === option}
                onChange={() => setSyncMode(option)}
                className="sr-only"
                aria-describedby="sync-mode-hint"
              />
              {labels[option].name}
            </label>
          ))}
        </div>
      </fieldset>
      <Button variant="ghost" onClick={requestResync} className="min-h-9 px-2 sm:px-3">
        Resync
      </Button>
      <p id="sync-mode-hint" className="w-full text-xs text-muted">
        {labels[mode].hint}
      </p>
    </div>
  );
}

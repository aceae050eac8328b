"use client";

import { type FormEvent, useState } from "react";
import { useRouter } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { sessionErrorText, sessionMessages } from "@/lib/sessions/rpc";
import { shareText, type SessionMode, turnLengthText } from "@/lib/sessions/turns";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";

export interface SessionRules {
  mode: SessionMode;
  turnMaxSeconds: number;
  skipShare: number;
}

const turnLengths = [180, 300, 480, 600, 900, 1200, 1800, 3600];
const shares = [0.25, 0.33, 0.5, 0.67, 0.75, 1];

/**
 * The owner's choice of how listening sessions run: one host, or DJ turns (with the longest turn),
 * and the share of the people listening along whose votes skip a track. Postgres
 * (set_session_rules) refuses anyone else and anything out of range, in words. A new session takes
 * the mode; the turn length and the share apply at once.
 */
export function SessionRulesForm({ roomId, initial }: { roomId: string; initial: SessionRules }) {
  const router = useRouter();
  const [mode, setMode] = useState<SessionMode>(initial.mode);
  const [turn, setTurn] = useState(String(initial.turnMaxSeconds));
  const [share, setShare] = useState(String(initial.skipShare));
  const [state, setState] = useState<{ status: "idle" | "saving" | "saved" } | { status: "error"; error: string }>({ status: "idle" });
  const lengths = turnLengths.includes(initial.turnMaxSeconds)
    ? turnLengths
    : [...turnLengths, initial.turnMaxSeconds].sort((a, b) => a - b);
  const shareChoices = shares.some((value) => Math.abs(value - initial.skipShare) < 0.005)
    ? shares
    : [...shares, initial.skipShare].sort((a, b) => a - b);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setState({ status: "saving" });
    try {
      const data = await loadSupabaseData();
      const { error } = await data.rpc("set_session_rules", {
        room_id: roomId,
        mode,
        turn_max_seconds: Number(turn),
        share: Number(share),
      });
      if (error) return setState({ status: "error", error: sessionErrorText(error) });
      setState({ status: "saved" });
      router.refresh();
    } catch {
      setState({ status: "error", error: sessionMessages.unreachable });
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-labelledby="session-rules-heading" className="flex flex-col gap-4">
      <h2 id="session-rules-heading" className="text-lg font-semibold">
        How sessions run
      </h2>
      {state.status === "saved" ? <Alert tone="success">Saved. A new session starts the way you chose.</Alert> : null}
      {state.status === "error" ? <Alert tone="error">{state.error}</Alert> : null}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Who plays</legend>
        {(
          [
            ["host", "One host", "The host plays the queue; members suggest posts."],
            ["dj_turns", "DJ turns", "Members join a waitlist and take turns, one post each."],
          ] as const
        ).map(([value, label, explanation]) => (
          <label key={value} className="flex items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-accent">
            <input
              type="radio"
              name="sessionMode"
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
              className="mt-1 accent-[var(--color-accent)]"
            />
            <span>
              <span className="block font-medium">{label}</span>
              <span className="block text-sm text-muted">{explanation}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField id="turn-max" label="Longest turn" value={turn} onChange={(event) => setTurn(event.target.value)}>
          {lengths.map((seconds) => (
            <option key={seconds} value={seconds}>
              {turnLengthText(seconds)}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="skip-share"
          label="Votes that skip a track"
          value={share}
          onChange={(event) => setShare(event.target.value)}
          hint="Of the people listening along when the vote starts."
        >
          {shareChoices.map((value) => (
            <option key={value} value={String(value)}>
              {shareText(value)}
            </option>
          ))}
        </SelectField>
      </div>
      <div>
        <Button type="submit" disabled={state.status === "saving"}>
          {state.status === "saving" ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

"use client";

import { type FormEvent, startTransition, useActionState, useState } from "react";
import { updateSessionStarters } from "@/lib/rooms/actions";
import type { SessionStartersState } from "@/lib/rooms/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { sessionStarterChoices, sessionStarterLabels, type SessionStarters } from "@/lib/rooms/session-starters";

const explanations: Record<SessionStarters, string> = {
  moderators: "You and the room's moderators start sessions; members join them.",
  members: "Every member of the room can start a session when none is on.",
};

/**
 * The owner's choice of who may start listening sessions. The chosen radio is the person's own
 * state: a save's answer never moves it. Submitted here rather than by React's form action, which
 * resets the form afterwards; without JavaScript the browser posts the same form to the same action.
 */
export function SessionStartersForm({ roomId, initial }: { roomId: string; initial: SessionStarters }) {
  const [state, action, pending] = useActionState(updateSessionStarters.bind(null, roomId), {
    status: "idle",
    value: initial,
  } as SessionStartersState);
  const [choice, setChoice] = useState<string>(initial);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => action(data));
  }

  return (
    <form action={action} onSubmit={onSubmit} aria-labelledby="session-starters-heading" className="flex flex-col gap-4">
      <h2 id="session-starters-heading" className="text-lg font-semibold">
        Listening sessions
      </h2>
      {state.status === "saved" ? (
        <Alert tone="success">
          Saved: {sessionStarterLabels[state.value as SessionStarters] ?? state.value} can start listening sessions.
        </Alert>
      ) : null}
      {state.status === "error" && state.error ? <Alert tone="error">{state.error}</Alert> : null}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Who can start listening sessions</legend>
        {sessionStarterChoices.map((option) => (
          <label key={option} className="flex items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-accent">
            <input
              type="radio"
              name="sessionStarters"
              value={option}
              checked={choice === option}
              onChange={() => setChoice(option)}
              className="mt-1 accent-[var(--color-accent)]"
            />
            <span>
              <span className="block font-medium">{sessionStarterLabels[option]}</span>
              <span className="block text-sm text-muted">{explanations[option]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

/** What moderators see: the owner's choice, read only. */
export function SessionStartersSummary({ value }: { value: SessionStarters }) {
  return (
    <section aria-labelledby="session-starters-heading" className="flex flex-col gap-1">
      <h2 id="session-starters-heading" className="text-lg font-semibold">
        Listening sessions
      </h2>
      <p>Who can start listening sessions: {sessionStarterLabels[value]}.</p>
      <p className="text-sm text-muted">Only the room&apos;s owner changes who can start listening sessions.</p>
    </section>
  );
}

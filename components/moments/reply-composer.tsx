"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { MentionTextArea } from "@/components/mentions/mention-textarea";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { createReply } from "@/lib/moments/actions";
import { loadMomentSchemas } from "@/lib/moments/schemas";
import type { Moment } from "@/lib/moments/types";
import { useMoments } from "./moments-context";
import { authorName } from "./names";

const unreachable = "We couldn't reach the server — check your connection and try again.";

/**
 * The small form under a comment that answers it. Escape closes it (focus goes back to its Reply
 * button); what was typed is kept by the comment (`draft`), so an error, or closing and opening it
 * again, never loses it. Posted, the reply shows under the comment at once (and live for everyone).
 */
export function ReplyComposer({
  parent,
  draft,
  onDraft,
  onClose,
  onPosted,
}: {
  parent: Moment;
  draft: string;
  onDraft: (value: string) => void;
  onClose: () => void;
  onPosted: () => void;
}) {
  const { room, dispatch } = useMoments();
  const id = useId();
  const fieldId = `reply-${parent.id}`;
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    document.getElementById(fieldId)?.focus();
    void loadMomentSchemas();
  }, [fieldId]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    const checked = (await loadMomentSchemas())?.momentBodySchema.safeParse(draft);
    if (checked && !checked.success) return setError(checked.error.issues[0].message);
    setError(null);
    setPending(true);
    const answer = await createReply({ parentId: parent.id, body: draft }).catch(() => ({
      ok: false as const,
      error: unreachable,
      errors: undefined,
    }));
    setPending(false);
    if (!answer.ok) {
      if (answer.errors?.body) return setError(answer.errors.body);
      return setFormError(answer.error);
    }
    dispatch({ type: "upsert", moment: answer.data });
    onDraft("");
    onPosted();
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onClose();
        }
      }}
      className="ml-3 flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 sm:ml-6"
    >
      <p id={`${id}-title`} className="sr-only">
        Reply to {authorName(parent)}
      </p>
      <MentionTextArea
        id={fieldId}
        roomId={room.id}
        label={`Reply to ${authorName(parent)}`}
        value={draft}
        onValueChange={(value) => {
          onDraft(value);
          if (error) setError(null);
        }}
        error={error ?? undefined}
        hint={`${draft.length}/1000 · Escape closes`}
        className="min-h-16"
      />
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Replying…" : "Post reply"}
        </Button>
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { BlockedTerm } from "@/lib/moderation/held";
import { blockTerm, unblockTerm } from "@/lib/moderation/report-actions";
import { useAct } from "./use-act";

function Term({ term, canEdit }: { term: BlockedTerm; canEdit: boolean }) {
  const act = useAct();
  return (
    <li className="inline-flex items-center gap-1 rounded-full border border-line py-0.5 pl-3 pr-1 text-sm">
      <span className="[overflow-wrap:anywhere]">{term.term}</span>
      {canEdit ? (
        <button
          type="button"
          disabled={act.pending}
          aria-label={`Stop blocking “${term.term}”`}
          onClick={() => act.run(() => unblockTerm(term.id))}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full hover:bg-line/60"
        >
          ×
        </button>
      ) : null}
      {act.error ? (
        <span role="alert" className="text-danger">
          {act.error}
        </span>
      ) : null}
    </li>
  );
}

/** Words and phrases that hold a comment for review: the owner keeps the list, moderators read it. */
export function BlockedTerms({ roomId, terms, canEdit }: { roomId: string; terms: BlockedTerm[]; canEdit: boolean }) {
  const [term, setTerm] = useState("");
  const add = useAct();
  return (
    <section aria-labelledby="terms-heading" className="flex flex-col gap-4">
      <h2 id="terms-heading" className="text-lg font-semibold">
        Blocked words
      </h2>
      <p className="text-sm text-muted">
        A comment with one of these words or phrases waits for a moderator before others see it. Capitals and accents don&apos;t matter.
        {canEdit ? "" : " Only the owner changes the list."}
      </p>
      {terms.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Blocked words">
          {terms.map((entry) => (
            <Term key={entry.id} term={entry} canEdit={canEdit} />
          ))}
        </ul>
      ) : (
        <p className="text-sm">No words are blocked.</p>
      )}
      {canEdit ? (
        <form
          aria-label="Block a word"
          className="flex flex-col gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            add.run(
              () => blockTerm({ roomId, term }),
              null,
              () => setTerm(""),
            );
          }}
        >
          <div className="flex flex-wrap items-end gap-2">
            <div className="min-w-48 flex-1 sm:max-w-xs">
              <TextField
                id="blocked-term"
                label="Word or phrase"
                value={term}
                maxLength={60}
                onChange={(event) => setTerm(event.target.value)}
              />
            </div>
            <Button type="submit" variant="secondary" disabled={add.pending}>
              {add.pending ? "Adding…" : "Block"}
            </Button>
          </div>
          {add.error ? <Alert tone="error">{add.error}</Alert> : null}
        </form>
      ) : null}
    </section>
  );
}

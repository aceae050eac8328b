"use client";

import { useId, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { networkMessage } from "@/lib/auth/messages";
import { reportItem } from "@/lib/moderation/report-actions";
import { type ReportCategory, reportCategories, reportCategoryLabels, reportMessages } from "@/lib/moderation/reports";
import { fail } from "@/lib/result";

/**
 * "Report" on a post or a comment someone else wrote: a small disclosure with the five categories and
 * an optional note. Once sent it says so; a second report of the same item is told plainly.
 */
export function ReportButton({ target }: { target: { postId: string } | { momentId: string } }) {
  const id = useId();
  const what = "postId" in target ? "post" : "comment";
  const [category, setCategory] = useState<ReportCategory | "">("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  if (done) {
    return (
      <p role="status" className="text-sm text-muted">
        {done}
      </p>
    );
  }
  return (
    <details className="group text-sm" data-report={what}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center rounded-lg px-3 text-muted hover:bg-line/60 sm:min-h-8">
        Report
      </summary>
      <form
        aria-label={`Report this ${what}`}
        noValidate
        className="mt-2 flex flex-col gap-3 rounded-xl border border-line bg-raised p-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!category) return setError("Choose what is wrong.");
          setError(null);
          startTransition(async () => {
            const answer = await reportItem({ ...target, category, note }).catch(() => fail(networkMessage));
            if (answer.ok) setDone(reportMessages.reported);
            else if (/already reported/i.test(answer.error)) setDone(`You've already reported this ${what}. Moderators will review it.`);
            else setError(answer.error);
          });
        }}
      >
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 font-medium">What is wrong with it?</legend>
          {reportCategories.map((option) => (
            <label key={option} className="flex min-h-11 items-center gap-2 sm:min-h-9">
              <input
                type="radio"
                name={`${id}-category`}
                value={option}
                checked={category === option}
                onChange={() => setCategory(option)}
                className="h-4 w-4 accent-[var(--color-accent)]"
              />
              {reportCategoryLabels[option]}
            </label>
          ))}
        </fieldset>
        <TextAreaField
          id={`${id}-note`}
          label="Anything moderators should know (optional)"
          value={note}
          maxLength={500}
          onChange={(event) => setNote(event.target.value)}
          className="min-h-16"
        />
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div>
          <Button type="submit" variant="secondary" disabled={pending}>
            {pending ? "Sending…" : `Report ${what}`}
          </Button>
        </div>
      </form>
    </details>
  );
}

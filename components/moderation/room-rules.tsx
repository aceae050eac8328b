"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { setReportThreshold, setSlowMode } from "@/lib/moderation/actions";
import { slowModeChoices } from "@/lib/moderation/rules";
import { useAct } from "./use-act";

function slowModeLabel(seconds: number): string {
  return slowModeChoices.find((choice) => choice.seconds === seconds)?.label ?? `${seconds} seconds`;
}

/** Slow mode (the owner and moderators) and how many reports hide an item (the owner sets it; moderators read it). */
export function RoomRules({
  roomId,
  slowModeSeconds,
  reportThreshold,
  isOwner,
}: {
  roomId: string;
  slowModeSeconds: number;
  reportThreshold: number;
  isOwner: boolean;
}) {
  const [seconds, setSeconds] = useState(String(slowModeSeconds));
  const [threshold, setThreshold] = useState(String(reportThreshold));
  const slow = useAct();
  const reports = useAct();

  return (
    <section aria-labelledby="rules-heading" className="flex flex-col gap-6">
      <h2 id="rules-heading" className="text-lg font-semibold">
        Pace and reports
      </h2>
      <form
        aria-label="Set slow mode"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const value = Number(seconds);
          slow.run(() => setSlowMode(roomId, value), value ? `Slow mode is on: ${slowModeLabel(value)}.` : "Slow mode is off.");
        }}
      >
        <SelectField
          id="slow-mode"
          label="Slow mode"
          hint="The least time between one person's comments. You and the moderators aren't slowed."
          value={seconds}
          onChange={(event) => setSeconds(event.target.value)}
          className="sm:max-w-xs"
        >
          {slowModeChoices.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        <div>
          <Button type="submit" variant="secondary" disabled={slow.pending}>
            {slow.pending ? "Saving…" : "Save slow mode"}
          </Button>
        </div>
        {slow.error ? <Alert tone="error">{slow.error}</Alert> : null}
        {slow.done ? <Alert tone="success">{slow.done}</Alert> : null}
      </form>
      {isOwner ? (
        <form
          aria-label="Report threshold"
          className="flex flex-col gap-3 border-t border-line pt-6"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const value = Number(threshold);
            reports.run(
              () => setReportThreshold(roomId, value),
              `Saved: ${value === 1 ? "1 report hides" : `${value} reports hide`} a post or comment.`,
            );
          }}
        >
          <TextField
            id="report-threshold"
            label="Reports that hide a post or comment"
            hint="From 1 to 100 people. Reports from people who joined in the last day don't count."
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={threshold}
            onChange={(event) => setThreshold(event.target.value)}
            className="sm:max-w-32"
          />
          <div>
            <Button type="submit" variant="secondary" disabled={reports.pending}>
              {reports.pending ? "Saving…" : "Save threshold"}
            </Button>
          </div>
          {reports.error ? <Alert tone="error">{reports.error}</Alert> : null}
          {reports.done ? <Alert tone="success">{reports.done}</Alert> : null}
        </form>
      ) : (
        <p className="border-t border-line pt-6 text-sm">
          {reportThreshold === 1 ? "1 report hides" : `${reportThreshold} reports hide`} a post or comment until a moderator reviews it.{" "}
          <span className="text-muted">Only the owner changes this.</span>
        </p>
      )}
    </section>
  );
}

"use client";

import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { banMember, timeOutMember } from "@/lib/moderation/actions";
import { timeoutChoices } from "@/lib/moderation/rules";
import { useAct } from "./use-act";

/** How long a ban lasts, in days; 0: for good. */
const banChoices = [
  { days: 0, label: "Permanently" },
  { days: 1, label: "1 day" },
  { days: 7, label: "1 week" },
  { days: 30, label: "30 days" },
] as const;

/** A ban of `days` ends that long from now; 0 is for good (null). */
function banEnd(days: number): string | null {
  return days > 0 ? new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString() : null;
}

/** "Time out" and "Ban" for one person, behind a small disclosure so a list of people stays calm. */
export function MemberModeration({
  roomId,
  userId,
  name,
  label = "Time out or ban",
}: {
  roomId: string;
  userId: string;
  name: string;
  /** The disclosure's words. */
  label?: string;
}) {
  const id = useId();
  const [minutes, setMinutes] = useState<string>(String(timeoutChoices[1].minutes));
  const [timeoutReason, setTimeoutReason] = useState("");
  const [days, setDays] = useState<string>("0");
  const [banReason, setBanReason] = useState("");
  const timeout = useAct();
  const ban = useAct();

  return (
    <details className="group w-full rounded-lg border border-line sm:w-auto">
      <summary
        className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-3 text-sm font-medium [&::-webkit-details-marker]:hidden"
        aria-label={`${label}: ${name}`}
      >
        <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
          ›
        </span>
        {label}
      </summary>
      <div className="flex flex-col gap-4 border-t border-line p-3 sm:w-80">
        <form
          aria-label={`Time out ${name}`}
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            timeout.run(
              () => timeOutMember({ roomId, userId, minutes: Number(minutes), reason: timeoutReason }),
              `${name} is timed out.`,
              () => setTimeoutReason(""),
            );
          }}
        >
          <SelectField id={`${id}-minutes`} label="Time out for" value={minutes} onChange={(event) => setMinutes(event.target.value)}>
            {timeoutChoices.map((choice) => (
              <option key={choice.minutes} value={choice.minutes}>
                {choice.label}
              </option>
            ))}
          </SelectField>
          <TextField
            id={`${id}-timeout-reason`}
            label="Reason (optional)"
            value={timeoutReason}
            maxLength={500}
            onChange={(event) => setTimeoutReason(event.target.value)}
          />
          <div>
            <Button type="submit" variant="secondary" disabled={timeout.pending}>
              {timeout.pending ? "Timing out…" : "Time out"}
            </Button>
          </div>
          {timeout.error ? <Alert tone="error">{timeout.error}</Alert> : null}
          {timeout.done ? <Alert tone="success">{timeout.done}</Alert> : null}
        </form>
        <form
          aria-label={`Ban ${name}`}
          className="flex flex-col gap-2 border-t border-line pt-4"
          onSubmit={(event) => {
            event.preventDefault();
            ban.run(() => banMember({ roomId, userId, reason: banReason, expiresAt: banEnd(Number(days)) }), `${name} is banned.`);
          }}
        >
          <SelectField id={`${id}-days`} label="Ban" value={days} onChange={(event) => setDays(event.target.value)}>
            {banChoices.map((choice) => (
              <option key={choice.days} value={choice.days}>
                {choice.label}
              </option>
            ))}
          </SelectField>
          <TextField
            id={`${id}-ban-reason`}
            label="Reason"
            value={banReason}
            maxLength={500}
            onChange={(event) => setBanReason(event.target.value)}
          />
          <div>
            <Button type="submit" variant="danger" disabled={ban.pending}>
              {ban.pending ? "Banning…" : `Ban ${name}`}
            </Button>
          </div>
          {ban.error ? <Alert tone="error">{ban.error}</Alert> : null}
          {ban.done ? <Alert tone="success">{ban.done}</Alert> : null}
        </form>
      </div>
    </details>
  );
}

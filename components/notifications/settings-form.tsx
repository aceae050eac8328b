"use client";

import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import {
  type NotificationKind,
  type NotificationSettings,
  notificationKindLabels,
  notificationKinds,
  notificationSettingsMessages,
  settingsFieldNames,
} from "@/lib/notifications/settings";
import { updateNotificationSettings } from "@/lib/notifications/settings-actions";
import type { NotificationSettingsFormState } from "@/lib/notifications/settings-form-state";

/**
 * Which kinds of notification a person takes in Cuepoint and by email, and whether people they share
 * no room with are held back. A plain form posted to its server action (it works without
 * JavaScript too); the switches are the form's own state, never replaced by a save's answer, so a
 * change made while a save is in flight, or a save that failed, keeps what was chosen.
 */
export function NotificationSettingsForm({ initial, hasEmail }: { initial: NotificationSettings; hasEmail: boolean }) {
  const [state, action, pending] = useActionState(updateNotificationSettings, {
    status: "idle",
    values: initial,
  } satisfies NotificationSettingsFormState);
  const [values, setValues] = useState<NotificationSettings>(() => state.values);
  const [changed, setChanged] = useState(false);

  function toggle(list: "inApp" | "email", kind: NotificationKind, on: boolean) {
    setChanged(true);
    setValues((current) => ({
      ...current,
      [list]: on ? [...current[list].filter((k) => k !== kind), kind] : current[list].filter((k) => k !== kind),
    }));
  }

  return (
    <form action={action} onSubmit={() => setChanged(false)} className="flex flex-col gap-5" aria-labelledby="notifications">
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">Which notifications you get, in Cuepoint and by email</caption>
          <thead>
            <tr className="border-b border-line text-left">
              <th scope="col" className="py-2 pr-2 font-medium">
                Notify me about
              </th>
              <th scope="col" className="w-20 px-1 py-2 text-center font-medium sm:w-28">
                In Cuepoint
              </th>
              <th scope="col" className="w-20 px-1 py-2 text-center font-medium sm:w-28">
                By email
              </th>
            </tr>
          </thead>
          <tbody>
            {notificationKinds.map((kind) => {
              const { label, hint } = notificationKindLabels[kind];
              return (
                <tr key={kind} className="border-b border-line last:border-b-0">
                  <th scope="row" className="py-2 pr-2 text-left align-middle font-normal">
                    <span className="block font-medium">{label}</span>
                    <span className="block text-muted">{hint}</span>
                  </th>
                  <td className="px-1 text-center align-middle">
                    <Switch
                      name={settingsFieldNames.inApp}
                      kind={kind}
                      label={`${label} in Cuepoint`}
                      checked={values.inApp.includes(kind)}
                      onChange={(on) => toggle("inApp", kind, on)}
                    />
                  </td>
                  <td className="px-1 text-center align-middle">
                    <Switch
                      name={settingsFieldNames.email}
                      kind={kind}
                      label={`${label} by email`}
                      checked={values.email.includes(kind)}
                      onChange={(on) => toggle("email", kind, on)}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-muted">
        {hasEmail
          ? "By email: at most one email an hour, listing what you haven't read in Cuepoint yet. Nothing is emailed unless you switch it on here."
          : "By email: your account has no email address, so nothing is emailed — add one to get an hourly summary of what you haven't read."}
      </p>
      <label className="flex min-h-11 items-start gap-3 text-sm">
        <input
          type="checkbox"
          role="switch"
          name={settingsFieldNames.holdStrangers}
          checked={values.holdStrangers}
          onChange={(event) => {
            setChanged(true);
            setValues((current) => ({ ...current, holdStrangers: event.target.checked }));
          }}
          aria-describedby="hold-strangers-hint"
          className="mt-0.5 h-5 w-5 shrink-0 accent-accent"
        />
        <span className="flex flex-col gap-0.5">
          <span className="font-medium">Hold back notifications from people you don&apos;t share a room with</span>
          <span id="hold-strangers-hint" className="text-muted">
            They&apos;re kept apart on your notifications page and don&apos;t count as unread.
          </span>
        </span>
      </label>
      {state.status === "saved" && !changed ? <Alert tone="success">{notificationSettingsMessages.saved}</Alert> : null}
      {state.status === "error" && state.message ? <Alert tone="error">{state.message}</Alert> : null}
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Saving…" : "Save notification settings"}
        </Button>
      </div>
    </form>
  );
}

/** One kind's checkbox, thumb-sized, announced as a switch with its kind and place. */
function Switch({
  name,
  kind,
  label,
  checked,
  onChange,
}: {
  name: string;
  kind: NotificationKind;
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        role="switch"
        name={name}
        value={kind}
        aria-label={label}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-5 w-5 accent-accent"
      />
    </label>
  );
}

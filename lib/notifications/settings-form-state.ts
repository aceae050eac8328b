// What the notification settings form sends to its server action (./settings-actions.ts) and gets back.
import type { NotificationSettings } from "./settings";

export interface NotificationSettingsFormState {
  status: "idle" | "saved" | "error";
  /** What the form holds: on an error, what was chosen, so nothing is lost. */
  values: NotificationSettings;
  message?: string;
}

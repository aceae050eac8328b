// What the start-session form gets back from its Server Action (./actions.ts).

export interface StartSessionState {
  status: "idle" | "error";
  message?: string;
  /** A session is on already: the form links to it. */
  live?: boolean;
}

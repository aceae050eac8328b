// A person's notification choices as the database keeps them (public.notification_settings and
// public.notification_mutes, supabase/migrations/20261130000200_mentions_and_notifications.sql): which
// kinds they take in Cuepoint, which they also want by email, whether people they share no room with
// are held back, and the rooms and threads they muted. Pure: the words, the defaults and the shapes
// the forms and the actions share. The calls to the database are in ./settings-data.ts.

/** Every kind the database writes, in the order a person reads them. */
export const notificationKinds = [
  "reply",
  "mention",
  "reaction",
  "session_started",
  "role_changed",
  "membership_ended",
  "moderation",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Each kind as the settings list names it, and what it covers. */
export const notificationKindLabels: Record<NotificationKind, { label: string; hint: string }> = {
  reply: { label: "Replies", hint: "Someone answers your comment" },
  mention: { label: "Mentions", hint: "Someone writes your @name" },
  reaction: { label: "Reactions", hint: "Someone reacts to your comment" },
  session_started: { label: "Sessions starting", hint: "A listening session starts in a room you're in" },
  role_changed: { label: "Role changes", hint: "You become a moderator, or stop being one" },
  membership_ended: { label: "Membership ended", hint: "You were removed from a room, or your pass lapsed" },
  moderation: { label: "Moderation", hint: "A moderator acts on something of yours" },
};

/** The choices, as the settings form shows them: the kinds taken in Cuepoint (not muted_kinds), by email, and strangers. */
export interface NotificationSettings {
  inApp: NotificationKind[];
  email: NotificationKind[];
  holdStrangers: boolean;
}

/** No row means these: every kind in Cuepoint, none by email, strangers held back. */
export const defaultNotificationSettings: NotificationSettings = {
  inApp: [...notificationKinds],
  email: [],
  holdStrangers: true,
};

/** The kinds in the list's order, each once, unknown ones dropped. */
export function orderedKinds(kinds: readonly unknown[]): NotificationKind[] {
  return notificationKinds.filter((kind) => kinds.includes(kind));
}

/** A stored row (or none) as the form's choices. */
export function settingsFromRow(
  row: { muted_kinds: readonly string[]; email_kinds: readonly string[]; hold_strangers: boolean } | null,
): NotificationSettings {
  if (!row) return { ...defaultNotificationSettings, inApp: [...defaultNotificationSettings.inApp] };
  return {
    inApp: notificationKinds.filter((kind) => !row.muted_kinds.includes(kind)),
    email: orderedKinds(row.email_kinds),
    holdStrangers: row.hold_strangers,
  };
}

/** The form's choices as the row's columns. */
export function rowFromSettings(settings: NotificationSettings): {
  muted_kinds: NotificationKind[];
  email_kinds: NotificationKind[];
  hold_strangers: boolean;
} {
  return {
    muted_kinds: notificationKinds.filter((kind) => !settings.inApp.includes(kind)),
    email_kinds: orderedKinds(settings.email),
    hold_strangers: settings.holdStrangers,
  };
}

/** The names of the form's fields: one checkbox per kind and place, and the strangers switch. */
export const settingsFieldNames = { inApp: "in_app", email: "email", holdStrangers: "hold_strangers" } as const;

/** What a posted settings form says (checked boxes are sent, unchecked ones are not). */
export function settingsFromFormData(form: Pick<FormData, "getAll" | "get">): { inApp: string[]; email: string[]; holdStrangers: boolean } {
  return {
    inApp: form.getAll(settingsFieldNames.inApp).map(String),
    email: form.getAll(settingsFieldNames.email).map(String),
    holdStrangers: form.get(settingsFieldNames.holdStrangers) === "on",
  };
}

/** A room, or one post's thread, a person muted. */
export type MuteTarget = { roomId: string; postId?: undefined } | { postId: string; roomId?: undefined };

/** A mute as the account page lists it; names are null when the person can no longer read them. */
export interface MutedPlace {
  id: string;
  kind: "room" | "post";
  roomId: string | null;
  postId: string | null;
  name: string | null;
  href: string | null;
  roomName: string | null;
}

export const notificationSettingsMessages = {
  saved: "Notification settings saved.",
  failed: "We couldn't save your notification settings — try again in a moment.",
  unknownKind: "Choose from the kinds listed",
  muteFailed: "We couldn't change that mute — try again in a moment.",
  oneTarget: "Name one room or one post",
  room: "That room no longer exists.",
  post: "That post no longer exists.",
} as const;

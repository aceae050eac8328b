// The notification settings' pure parts: the kinds, stored rows ⇄ the form's choices, a posted form,
// and the schemas the server actions parse with (lib/notifications/settings*.ts).
import { describe, expect, test } from "vitest";
import {
  defaultNotificationSettings,
  notificationKindLabels,
  notificationKinds,
  rowFromSettings,
  settingsFromFormData,
  settingsFromRow,
} from "@/lib/notifications/settings";
import { muteInputSchema, notificationSettingsSchema, unmuteByIdSchema } from "@/lib/notifications/settings-schema";

const roomId = "6a1f4c1e-0b1d-4c55-9a4e-1f2d3c4b5a69";

describe("kinds", () => {
  test("every kind the database writes has words", () => {
    expect(notificationKinds).toEqual([
      "reply",
      "mention",
      "reaction",
      "session_started",
      "role_changed",
      "membership_ended",
      "moderation",
    ]);
    for (const kind of notificationKinds) expect(notificationKindLabels[kind].label).toMatch(/^[A-Z]/);
  });
});

describe("rows and choices", () => {
  test("no row is the defaults: every kind in Cuepoint, none by email, strangers held back", () => {
    expect(settingsFromRow(null)).toEqual({ inApp: [...notificationKinds], email: [], holdStrangers: true });
    expect(defaultNotificationSettings.holdStrangers).toBe(true);
  });

  test("muted kinds are the ones not taken in Cuepoint, both ways", () => {
    const row = { muted_kinds: ["reaction", "moderation"], email_kinds: ["mention", "reply", "bogus"], hold_strangers: false };
    const settings = settingsFromRow(row);
    expect(settings).toEqual({
      inApp: ["reply", "mention", "session_started", "role_changed", "membership_ended"],
      email: ["reply", "mention"],
      holdStrangers: false,
    });
    expect(rowFromSettings(settings)).toEqual({
      muted_kinds: ["reaction", "moderation"],
      email_kinds: ["reply", "mention"],
      hold_strangers: false,
    });
  });

  test("a posted form: checked boxes only, the strangers switch off when not sent", () => {
    const form = new FormData();
    form.append("in_app", "reply");
    form.append("in_app", "mention");
    form.append("email", "mention");
    expect(settingsFromFormData(form)).toEqual({ inApp: ["reply", "mention"], email: ["mention"], holdStrangers: false });
    form.append("hold_strangers", "on");
    expect(settingsFromFormData(form).holdStrangers).toBe(true);
  });
});

describe("notificationSettingsSchema", () => {
  test("known kinds pass, in the list's order, each once", () => {
    const parsed = notificationSettingsSchema.parse({ inApp: ["moderation", "reply", "reply"], email: [], holdStrangers: true });
    expect(parsed.inApp).toEqual(["reply", "moderation"]);
  });

  test("an unknown kind is refused in words", () => {
    const parsed = notificationSettingsSchema.safeParse({ inApp: ["reply", "everything"], email: [], holdStrangers: true });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe("Choose from the kinds listed");
    expect(notificationSettingsSchema.safeParse({ inApp: "reply", email: [], holdStrangers: true }).success).toBe(false);
    expect(notificationSettingsSchema.safeParse({ inApp: [], email: [], holdStrangers: "yes" }).success).toBe(false);
  });

  test("no kinds at all is a choice too", () => {
    expect(notificationSettingsSchema.parse({ inApp: [], email: [], holdStrangers: false })).toEqual({
      inApp: [],
      email: [],
      holdStrangers: false,
    });
  });
});

describe("muteInputSchema", () => {
  test("one room or one post", () => {
    expect(muteInputSchema.safeParse({ roomId, muted: true }).success).toBe(true);
    expect(muteInputSchema.safeParse({ postId: roomId, muted: false }).success).toBe(true);
    expect(muteInputSchema.safeParse({ roomId, postId: roomId, muted: true }).error?.issues[0].message).toBe("Name one room or one post");
    expect(muteInputSchema.safeParse({ muted: true }).error?.issues[0].message).toBe("Name one room or one post");
  });

  test("a bad id or a missing answer is refused", () => {
    expect(muteInputSchema.safeParse({ roomId: "nope", muted: true }).error?.issues[0].message).toBe("That room no longer exists.");
    expect(muteInputSchema.safeParse({ roomId }).success).toBe(false);
    expect(unmuteByIdSchema.safeParse("x").success).toBe(false);
    expect(unmuteByIdSchema.safeParse(roomId).success).toBe(true);
  });
});

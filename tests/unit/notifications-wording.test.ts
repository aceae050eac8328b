// What each kind of notification says and where it leads, from the rows my_notifications answers:
// names by the one name rule, grouped reactions, words the reader may no longer read, a deleted actor.
import { describe, expect, test } from "vitest";
import { type NotificationItem, type NotificationRow, toNotificationItem } from "@/lib/notifications/types";
import { deletedCommentNote, describeNotification, hiddenCommentNote, unreadableNote } from "@/lib/notifications/wording";

const ids = {
  n: "00000000-0000-4000-8000-000000000001",
  actor: "00000000-0000-4000-8000-000000000002",
  room: "00000000-0000-4000-8000-000000000003",
  post: "00000000-0000-4000-8000-000000000004",
  moment: "00000000-0000-4000-8000-000000000005",
};

/** A row as the RPC answers it (nulls where the database has them). */
function row(overrides: Record<string, unknown>): NotificationItem {
  return toNotificationItem({
    id: ids.n,
    kind: "reply",
    created_at: "2026-11-27T10:00:00.123456+00:00",
    read_at: null,
    held: false,
    data: {},
    actor_id: ids.actor,
    actor_username: "ada",
    actor_display_name: "Ada Lovelace",
    actor_ens_name: null,
    actor_avatar_path: null,
    room_id: ids.room,
    room_slug: "late-night-synths",
    room_name: "Late Night Synths",
    post_id: ids.post,
    post_title: "Forty seconds of tone",
    moment_id: ids.moment,
    parent_id: "00000000-0000-4000-8000-000000000006",
    at_seconds: 12.7,
    excerpt: "That bass line at 0:12!",
    people: null,
    ...overrides,
  } as unknown as NotificationRow);
}

const commentLink = `/m/${ids.moment}`;
const postLink = `/r/late-night-synths/p/${ids.post}`;

describe("conversation kinds", () => {
  test("a reply names its author, where, the reply's words, and leads to the reply", () => {
    const words = describeNotification(row({ kind: "reply" }));
    expect(words.sentence).toBe("Ada Lovelace replied to your comment");
    expect(words.actor).toMatchObject({ display_name: "Ada Lovelace" });
    expect(words.rest).toBe("replied to your comment");
    expect(words.context).toBe("Late Night Synths · “Forty seconds of tone”");
    expect(words.excerpt).toBe("That bass line at 0:12!");
    expect(words.note).toBeNull();
    expect(words.href).toBe(commentLink);
  });

  test("a mention in a comment leads to the comment; in a post, to the post", () => {
    expect(describeNotification(row({ kind: "mention" }))).toMatchObject({
      sentence: "Ada Lovelace mentioned you in a comment",
      href: commentLink,
    });
    const inPost = describeNotification(
      row({ kind: "mention", moment_id: null, parent_id: null, at_seconds: null, excerpt: "Hey @grace" }),
    );
    expect(inPost).toMatchObject({ sentence: "Ada Lovelace mentioned you in a post", href: postLink, excerpt: "Hey @grace" });
  });

  test("reactions are grouped: the latest reactor and how many others", () => {
    const one = describeNotification(row({ kind: "reaction", data: { count: 1, emoji: "🔥" }, people: 1 }));
    expect(one.sentence).toBe("Ada Lovelace reacted 🔥 to your comment");
    expect(one.href).toBe(commentLink);
    expect(describeNotification(row({ kind: "reaction", data: { count: 2, emoji: "🔥" }, people: 2 })).sentence).toBe(
      "Ada Lovelace and 1 other reacted 🔥 to your comment",
    );
    expect(describeNotification(row({ kind: "reaction", data: { count: 7, emoji: "❤️" }, people: 4 })).sentence).toBe(
      "Ada Lovelace and 3 others reacted ❤️ to your comment",
    );
  });

  test("the one name rule: the ENS name beside the display name, @username without one", () => {
    const ens = describeNotification(row({ actor_ens_name: "ada.eth" }));
    expect(ens.actor).toMatchObject({ display_name: "Ada Lovelace", ens_name: "ada.eth" });
    expect(describeNotification(row({ actor_display_name: " " })).sentence).toBe("@ada replied to your comment");
  });

  test("a deleted actor is 'Someone'", () => {
    const words = describeNotification(
      row({ actor_id: null, actor_username: null, actor_display_name: null, actor_ens_name: null, actor_avatar_path: null }),
    );
    expect(words.sentence).toBe("Someone replied to your comment");
    expect(words.actor).not.toBeNull();
  });

  test("words the reader can no longer read are said so plainly, never shown", () => {
    const words = describeNotification(row({ kind: "reply", post_title: null, excerpt: null }));
    expect(words.excerpt).toBeNull();
    expect(words.context).toBe("Late Night Synths");
    expect(words.note).toBe(unreadableNote);
    expect(words.note).toMatch(/members-only room you can no longer read/);
    expect(describeNotification(row({ kind: "mention", moment_id: null, post_title: null, excerpt: null })).note).toBe(unreadableNote);
    expect(
      describeNotification(row({ kind: "reaction", post_title: null, excerpt: null, people: null, data: { emoji: "🔥" } })).sentence,
    ).toBe("Ada Lovelace reacted 🔥 to your comment");
  });

  test("a hidden comment in a readable post, and a deleted comment kept for its replies", () => {
    expect(describeNotification(row({ kind: "mention", excerpt: null })).note).toBe(hiddenCommentNote);
    expect(describeNotification(row({ kind: "reaction", excerpt: "", people: 1, data: { emoji: "👍" } })).note).toBe(deletedCommentNote);
  });
});

describe("room kinds", () => {
  test("a session started leads to the room's listening page", () => {
    const words = describeNotification(
      row({ kind: "session_started", post_id: null, post_title: null, moment_id: null, excerpt: null, data: { session_id: ids.n } }),
    );
    expect(words.sentence).toBe("Ada Lovelace started listening together in Late Night Synths");
    expect(words.href).toBe("/r/late-night-synths/listen");
    expect(words.note).toBeNull();
  });

  test("a role change names the new role", () => {
    const words = describeNotification(
      row({ kind: "role_changed", post_id: null, moment_id: null, data: { from: "member", to: "moderator" } }),
    );
    expect(words).toMatchObject({ actor: null, sentence: "Your role in Late Night Synths is now moderator", href: "/r/late-night-synths" });
  });

  test("a membership's end says why", () => {
    const ended = (why: string) =>
      describeNotification(row({ kind: "membership_ended", post_id: null, moment_id: null, data: { why } })).sentence;
    expect(ended("lapsed")).toBe("Your membership of Late Night Synths ended: your wallets no longer hold the token");
    expect(ended("removed")).toBe("Your membership of Late Night Synths ended: a moderator removed you");
    expect(ended("banned")).toBe("Your membership of Late Night Synths ended: you were banned");
    expect(ended("something new")).toBe("Your membership of Late Night Synths ended");
  });

  test("a moderator's action says what, where and why", () => {
    const moderation = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      describeNotification(row({ kind: "moderation", post_id: null, moment_id: null, excerpt: null, ...extra, data }));
    const removed = moderation({ action: "comment_removed", reason: "Spam links" });
    expect(removed).toMatchObject({
      sentence: "A moderator removed your comment in Late Night Synths: Spam links",
      href: "/r/late-night-synths",
    });
    expect(moderation({ action: "post_removed", reason: null }).sentence).toBe("A moderator removed your post in Late Night Synths");
    expect(moderation({ action: "comment_hidden", reason: "Off topic" }, { post_id: ids.post, moment_id: ids.moment })).toMatchObject({
      sentence: "A moderator hid your comment in Late Night Synths: Off topic",
      href: commentLink,
    });
    expect(moderation({ action: "post_hidden" }, { post_id: ids.post }).href).toBe(postLink);
    expect(moderation({ action: "approved" }, { post_id: ids.post }).href).toBe(postLink);
    expect(moderation({ action: "timeout", reason: "Cool off" }).sentence).toBe("A moderator timed you out in Late Night Synths: Cool off");
    expect(moderation({ action: "timeout_lifted" }).sentence).toBe("A moderator lifted your timeout in Late Night Synths");
    expect(moderation({ action: "unban" }).sentence).toBe("A moderator lifted your ban from Late Night Synths");
  });

  test("a kind this page does not know yet still reads as words", () => {
    expect(describeNotification(row({ kind: "future_kind" })).sentence).toBe("Something happened in Late Night Synths");
  });
});

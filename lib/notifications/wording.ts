import { type NamedPerson, personName } from "@/lib/people/names";
import type { NotificationItem } from "./types";

/**
 * What a notification says, in words, and where it leads. The sentence starts with the person who
 * did it where there is one (shown by the one name rule: `actor` beside `rest`), and says plainly
 * when what it is about is no longer the reader's to read.
 */
export interface NotificationWords {
  /** Who did it, named by the one name rule ("Someone" for an account deleted since); null when the sentence names nobody. */
  actor: NamedPerson | null;
  /** The sentence after the actor's name, or the whole sentence when `actor` is null. */
  rest: string;
  /** The whole sentence, names included. */
  sentence: string;
  /** Where it happened: the room, and the post's title where the reader may still read it. */
  context: string | null;
  /** The comment's or post's words, where the reader may still read them. */
  excerpt: string | null;
  /** Why the words are not shown, when they are not. */
  note: string | null;
  /** The exact place it is about (null when nothing is left to open). */
  href: string | null;
}

/** Said when the room has become one the reader can no longer read (they left, lapsed or were removed). */
export const unreadableNote = "It's in a members-only room you can no longer read.";
export const hiddenCommentNote = "That comment isn't shown any more.";
export const deletedCommentNote = "That comment was deleted.";

const deletedActor: NamedPerson = { display_name: null, username: null };

const roleWords: Record<string, string> = { owner: "owner", moderator: "moderator", member: "member" };

const endedWhy: Record<string, string> = {
  banned: "you were banned",
  removed: "a moderator removed you",
  lapsed: "your wallets no longer hold the token",
};

const moderationWords: Record<string, (room: string) => string> = {
  post_removed: (room) => `A moderator removed your post in ${room}`,
  comment_removed: (room) => `A moderator removed your comment in ${room}`,
  post_hidden: (room) => `A moderator hid your post in ${room}`,
  comment_hidden: (room) => `A moderator hid your comment in ${room}`,
  approved: (room) => `A moderator approved what you wrote in ${room}`,
  timeout: (room) => `A moderator timed you out in ${room}`,
  timeout_lifted: (room) => `A moderator lifted your timeout in ${room}`,
  unban: (room) => `A moderator lifted your ban from ${room}`,
};

const str = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);

/** The room's name as the sentence says it. */
function roomName(item: NotificationItem): string {
  return item.room?.name?.trim() || "a room";
}

function postHref(item: NotificationItem): string | null {
  return item.room?.slug && item.postId ? `/r/${item.room.slug}/p/${item.postId}` : null;
}

function roomHref(item: NotificationItem): string | null {
  return item.room?.slug ? `/r/${item.room.slug}` : null;
}

/** The comment it is about (through /m/, which finds its post and time), else its post, else its room. */
function momentHref(item: NotificationItem): string | null {
  return item.momentId ? `/m/${item.momentId}` : (postHref(item) ?? roomHref(item));
}

/** "Late Night Synths · “Forty seconds of tone”": the room, and the post while the reader may read it. */
function placeOf(item: NotificationItem): string | null {
  if (!item.room) return null;
  return item.postTitle ? `${roomName(item)} · “${item.postTitle}”` : roomName(item);
}

/** The words of a comment or post, or why they are not shown. */
function wordsOf(item: NotificationItem): { excerpt: string | null; note: string | null } {
  const about = item.momentId !== null || item.postId !== null;
  if (!about) return { excerpt: null, note: null };
  if (item.excerpt === null) {
    // The title is null too: the room is closed to the reader now. Otherwise the comment alone is hidden.
    if (item.postTitle === null) return { excerpt: null, note: unreadableNote };
    return { excerpt: null, note: item.momentId ? hiddenCommentNote : null };
  }
  if (!item.excerpt.trim()) return { excerpt: null, note: item.momentId ? deletedCommentNote : null };
  return { excerpt: item.excerpt, note: null };
}

function withActor(item: NotificationItem, rest: string, extra: Partial<NotificationWords>): NotificationWords {
  const actor = item.actor ?? deletedActor;
  return {
    actor,
    rest,
    sentence: `${personName(actor).name} ${rest}`,
    context: null,
    excerpt: null,
    note: null,
    href: null,
    ...extra,
  };
}

function withoutActor(sentence: string, extra: Partial<NotificationWords>): NotificationWords {
  return { actor: null, rest: sentence, sentence, context: null, excerpt: null, note: null, href: null, ...extra };
}

/** "and 1 other", "and 3 others" beside the latest reactor; nothing when they reacted alone. */
export function othersText(people: number | null): string {
  const others = (people ?? 1) - 1;
  if (others <= 0) return "";
  return ` and ${others.toLocaleString("en")} ${others === 1 ? "other" : "others"}`;
}

/** What a notification says and where it leads; every kind the database writes, and any other in general words. */
export function describeNotification(item: NotificationItem): NotificationWords {
  const room = roomName(item);
  switch (item.kind) {
    case "reply":
      return withActor(item, "replied to your comment", { context: placeOf(item), ...wordsOf(item), href: momentHref(item) });
    case "mention": {
      const inComment = item.momentId !== null;
      return withActor(item, inComment ? "mentioned you in a comment" : "mentioned you in a post", {
        context: placeOf(item),
        ...wordsOf(item),
        href: inComment ? momentHref(item) : (postHref(item) ?? roomHref(item)),
      });
    }
    case "reaction": {
      const emoji = str(item.data.emoji);
      const others = othersText(item.people);
      return withActor(item, `${others ? `${others.trim()} ` : ""}reacted${emoji ? ` ${emoji}` : ""} to your comment`, {
        context: placeOf(item),
        ...wordsOf(item),
        href: momentHref(item),
      });
    }
    case "session_started":
      return withActor(item, `started listening together in ${room}`, {
        href: item.room?.slug ? `/r/${item.room.slug}/listen` : null,
      });
    case "role_changed": {
      const to = str(item.data.to);
      const role = to ? (roleWords[to] ?? to) : null;
      return withoutActor(role ? `Your role in ${room} is now ${role}` : `Your role in ${room} changed`, { href: roomHref(item) });
    }
    case "membership_ended": {
      const why = str(item.data.why);
      const reason = why ? endedWhy[why] : undefined;
      return withoutActor(reason ? `Your membership of ${room} ended: ${reason}` : `Your membership of ${room} ended`, {
        href: roomHref(item),
      });
    }
    case "moderation": {
      const action = str(item.data.action) ?? "";
      const reason = str(item.data.reason);
      const said = (moderationWords[action] ?? ((name: string) => `A moderator acted on your account in ${name}`))(room);
      const href =
        action === "comment_hidden" || (action === "approved" && item.momentId)
          ? momentHref(item)
          : action === "post_hidden" || action === "approved"
            ? (postHref(item) ?? roomHref(item))
            : roomHref(item);
      return withoutActor(reason ? `${said}: ${reason}` : said, { href });
    }
    default:
      return withoutActor(`Something happened in ${room}`, { href: roomHref(item) });
  }
}

// The digest email: what `public.claim_email_digest` answers, checked with plain code, turned into
// a subject, a text part, an HTML part and the one-click unsubscribe headers (RFC 8058). Pure and
// free of path aliases: the notification-digest edge function (Deno) imports this file by relative
// path, and the unit tests import it as it is.
import { isUnsubscribeToken, unsubscribePath } from "./email-token.ts";

export interface DigestNotification {
  id: string;
  kind: string;
  created_at: string;
  data: Record<string, unknown>;
  /** Null when the person may no longer read the room: the email then names nobody. */
  actor_username: string | null;
  actor_display_name: string | null;
  room_slug: string | null;
  room_name: string | null;
  /** The post and its title, only where the person may still read them. */
  post_id: string | null;
  post_title: string | null;
  moment_id: string | null;
  /** The comment's (or the post's) words, only where the person may still read them. */
  excerpt: string | null;
}

export interface DigestClaim {
  user_id: string;
  email: string;
  claimed_at: string;
  previous_digest_at: string | null;
  /** How many notifications the digest is about; `notifications` holds the newest of them. */
  total: number;
  notifications: DigestNotification[];
  unsubscribe: { all: string; kinds: Record<string, string> };
}

export interface DigestEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

function parseNotification(value: unknown): DigestNotification | null {
  if (!isObject(value) || typeof value.id !== "string" || typeof value.kind !== "string") return null;
  return {
    id: value.id,
    kind: value.kind,
    created_at: text(value.created_at) ?? "",
    data: isObject(value.data) ? value.data : {},
    actor_username: text(value.actor_username),
    actor_display_name: text(value.actor_display_name),
    room_slug: text(value.room_slug),
    room_name: text(value.room_name),
    post_id: text(value.post_id),
    post_title: text(value.post_title),
    moment_id: text(value.moment_id),
    excerpt: text(value.excerpt),
  };
}

/** A claim as the database answers it, or null when there is nothing to send (or it is not one). */
export function parseDigestClaim(value: unknown): DigestClaim | null {
  if (!isObject(value) || typeof value.user_id !== "string" || typeof value.email !== "string" || !value.email.includes("@")) return null;
  if (!Array.isArray(value.notifications) || !isObject(value.unsubscribe)) return null;
  const all = value.unsubscribe.all;
  if (typeof all !== "string" || !isUnsubscribeToken(all)) return null;
  const kinds: Record<string, string> = {};
  if (isObject(value.unsubscribe.kinds)) {
    for (const [kind, token] of Object.entries(value.unsubscribe.kinds))
      if (typeof token === "string" && isUnsubscribeToken(token)) kinds[kind] = token;
  }
  const notifications = value.notifications.map(parseNotification).filter((n): n is DigestNotification => n !== null);
  if (notifications.length === 0) return null;
  const total = typeof value.total === "number" && value.total >= notifications.length ? value.total : notifications.length;
  return {
    user_id: value.user_id,
    email: value.email,
    claimed_at: text(value.claimed_at) ?? "",
    previous_digest_at: text(value.previous_digest_at),
    total,
    notifications,
    unsubscribe: { all, kinds },
  };
}

export function digestSubject(total: number): string {
  return total === 1 ? "1 new notification on Cuepoint" : `${total} new notifications on Cuepoint`;
}

/** What each kind of email is about, as the unsubscribe links and page say it ("Stop emails about …"). */
export const emailKindWords: Record<string, string> = {
  reply: "replies",
  mention: "mentions",
  reaction: "reactions",
  session_started: "listening sessions starting",
  role_changed: "role changes",
  membership_ended: "memberships ending",
  moderation: "moderators' actions",
};

const endedWhy: Record<string, string> = {
  banned: "you were banned",
  removed: "a moderator removed you",
  lapsed: "your wallets no longer hold its token",
};

const moderationWords: Record<string, string> = {
  post_removed: "A moderator removed your post in",
  comment_removed: "A moderator removed your comment in",
  post_hidden: "A moderator hid your post in",
  comment_hidden: "A moderator hid your comment in",
  approved: "A moderator approved what you wrote in",
  timeout: "A moderator timed you out in",
  timeout_lifted: "A moderator lifted your timeout in",
  unban: "A moderator lifted your ban from",
};

/** The person who did it: their display name, else @username, else "Someone" (the room is not theirs to read any more, or the account is gone). */
function actorName(n: DigestNotification): string {
  return n.actor_display_name?.trim() || (n.actor_username ? `@${n.actor_username}` : "Someone");
}

/** One notification as a sentence, without its words (those follow it, where the person may read them). */
export function notificationSentence(n: DigestNotification): string {
  const room = n.room_name ?? "a room";
  const post = n.post_title ? ` on “${n.post_title}”` : "";
  switch (n.kind) {
    case "reply":
      return `${actorName(n)} replied to your comment in ${room}${post}`;
    case "mention":
      return `${actorName(n)} mentioned you in ${room}${post}`;
    case "reaction": {
      const emoji = text(n.data.emoji);
      const count = typeof n.data.count === "number" ? n.data.count : 1;
      const others = count > 1 ? ` (${count} reactions)` : "";
      return `${actorName(n)} reacted${emoji ? ` ${emoji}` : ""} to your comment in ${room}${post}${others}`;
    }
    case "session_started":
      return `${actorName(n)} started a listening session in ${room}`;
    case "role_changed": {
      const role = text(n.data.to) ?? "member";
      return `You are now ${role === "owner" ? "the owner" : `a ${role}`} of ${room}`;
    }
    case "membership_ended": {
      const why = endedWhy[text(n.data.why) ?? ""];
      return why ? `Your membership of ${room} ended: ${why}` : `Your membership of ${room} ended`;
    }
    case "moderation": {
      const lead = moderationWords[text(n.data.action) ?? ""] ?? "A moderator acted on something of yours in";
      const reason = text(n.data.reason)?.trim();
      return `${lead} ${room}${reason ? `. Reason: ${reason}` : ""}`;
    }
    default:
      return `Something new in ${room}`;
  }
}

function siteBase(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, "");
}

/** Where a notification leads: the comment (`/m/<id>` finds its post and time), else the post, else the room. */
export function notificationHref(n: DigestNotification, siteUrl: string): string {
  const base = siteBase(siteUrl);
  if (n.moment_id) return `${base}/m/${n.moment_id}`;
  if (n.post_id && n.room_slug) return `${base}/r/${encodeURIComponent(n.room_slug)}/p/${n.post_id}`;
  if (n.room_slug) return `${base}/r/${encodeURIComponent(n.room_slug)}`;
  return `${base}/notifications`;
}

export function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteBase(siteUrl)}${unsubscribePath(token)}`;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** An excerpt on one line, cut at a word near 200 characters. */
function excerptLine(excerpt: string): string {
  const flat = excerpt.replace(/\s+/g, " ").trim();
  if (flat.length <= 200) return flat;
  const cut = flat.slice(0, 200);
  const space = cut.lastIndexOf(" ");
  return `${(space > 140 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The digest email for one claim: subject, both parts, and the headers a mail client's unsubscribe button uses. */
export function buildDigestEmail(claim: DigestClaim, siteUrl: string): DigestEmail {
  const subject = digestSubject(claim.total);
  const unsubscribeAll = unsubscribeUrl(siteUrl, claim.unsubscribe.all);
  const settingsUrl = `${siteBase(siteUrl)}/account`;
  const allUrl = `${siteBase(siteUrl)}/notifications`;
  const more = claim.total - claim.notifications.length;
  const kinds = Object.entries(claim.unsubscribe.kinds).filter(([kind]) => kind in emailKindWords);

  const items = claim.notifications.map((n) => ({
    sentence: notificationSentence(n),
    excerpt: n.excerpt ? excerptLine(n.excerpt) : null,
    href: notificationHref(n, siteUrl),
  }));

  const textLines = [subject, ""];
  for (const item of items) {
    textLines.push(`- ${item.sentence}`);
    if (item.excerpt) textLines.push(`  “${item.excerpt}”`);
    textLines.push(`  ${item.href}`, "");
  }
  if (more > 0) textLines.push(`And ${more} more: ${allUrl}`, "");
  textLines.push(
    "--",
    `You get these emails because you chose them in your notification settings: ${settingsUrl}`,
    `Stop all these emails: ${unsubscribeAll}`,
    ...kinds.map(([kind, token]) => `Stop emails about ${emailKindWords[kind]}: ${unsubscribeUrl(siteUrl, token)}`),
  );

  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="color:#4338ca">${escapeHtml(label)}</a>`;
  const htmlItems = items
    .map(
      (item) =>
        `<li style="margin:0 0 16px">` +
        `<p style="margin:0">${escapeHtml(item.sentence)}</p>` +
        (item.excerpt
          ? `<p style="margin:4px 0 0;padding-left:8px;border-left:3px solid #d4d4d8;color:#3f3f46">${escapeHtml(item.excerpt)}</p>`
          : "") +
        `<p style="margin:4px 0 0">${link(item.href, "Open on Cuepoint")}</p>` +
        `</li>`,
    )
    .join("");
  const html = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:15px;line-height:1.5;color:#18181b;background:#ffffff">`,
    `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(subject)}</h1>`,
    `<ul style="list-style:none;margin:0;padding:0">${htmlItems}</ul>`,
    more > 0 ? `<p style="margin:0 0 16px">${link(allUrl, `And ${more} more`)}</p>` : "",
    `<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0 12px">`,
    `<p style="margin:0;font-size:13px;color:#52525b">You get these emails because you chose them in your ${link(settingsUrl, "notification settings")}.</p>`,
    `<p style="margin:4px 0 0;font-size:13px;color:#52525b">${[link(unsubscribeAll, "Stop all these emails"), ...kinds.map(([kind, token]) => link(unsubscribeUrl(siteUrl, token), `Stop emails about ${emailKindWords[kind]}`))].join(" · ")}</p>`,
    `</body></html>`,
  ].join("");

  return {
    to: claim.email,
    subject,
    text: textLines.join("\n"),
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribeAll}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

// @names in a comment's, a reply's or a post's text, as the database reads them
// (private.mentioned_handles): "@" then 3–24 of a-z 0-9 _, not inside a word, an email address or a
// URL. Only names the item's mention rows hold become links; everything else stays text.
import type { Mention } from "@/lib/moments/types";

/** A run of a text: plain words, or an @name that names someone (linked to their current username). */
export type TextPart = { text: string } | { text: string; username: string; userId: string };

const mentionPattern = /(?<![A-Za-z0-9_@./])@([A-Za-z0-9_]{3,24})(?![A-Za-z0-9_])/g;

/** The @names in a text, lowercase, each once, in the order written. */
export function mentionedHandles(text: string): string[] {
  return [...new Set([...text.matchAll(mentionPattern)].map((match) => match[1].toLowerCase()))];
}

/**
 * The text cut into plain runs and @names that name someone: a name links only when a mention row
 * holds its handle (the person's current username is used, so a rename keeps the link working).
 */
export function mentionParts(text: string, mentions: readonly Mention[] | null | undefined): TextPart[] {
  const named = new Map<string, { username: string; userId: string }>();
  for (const mention of mentions ?? []) {
    if (mention.person?.username) named.set(mention.handle.toLowerCase(), { username: mention.person.username, userId: mention.user_id });
  }
  if (!named.size) return text ? [{ text }] : [];
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of text.matchAll(mentionPattern)) {
    const person = named.get(match[1].toLowerCase());
    if (!person) continue;
    if (match.index > from) parts.push({ text: text.slice(from, match.index) });
    parts.push({ text: match[0], ...person });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

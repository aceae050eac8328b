import Link from "next/link";
import { Fragment } from "react";
import { linkClasses } from "@/components/ui/link";
import { mentionParts } from "@/lib/mentions/tokens";
import type { Mention } from "@/lib/moments/types";

/**
 * A comment's, reply's or post's text with the @names that name someone as links to them (by their
 * current username); the rest as plain text (React text, never markup).
 */
export function MentionText({ text, mentions }: { text: string; mentions: readonly Mention[] | null | undefined }) {
  return (
    <>
      {mentionParts(text, mentions).map((part, index) =>
        "username" in part ? (
          <Link key={index} href={`/u/${part.username}`} className={`font-medium ${linkClasses}`}>
            {part.text}
          </Link>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

import type { Moment } from "@/lib/moments/types";
import { formatMomentTime } from "@/lib/moments/time";
import { personName } from "@/lib/people/names";

/** The author's name by the one rule for people's names (lib/people/names.ts). */
export const authorName = (moment: Moment) => personName(moment.author).name;

export function excerpt(body: string, length = 60): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

/** "Comment at 1:42 by Ada" — a marker's and a picked comment's name. */
export const momentLabel = (moment: Moment) => `Comment at ${formatMomentTime(moment.at_seconds ?? 0)} by ${authorName(moment)}`;

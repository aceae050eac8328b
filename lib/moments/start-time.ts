// Where a link to a post starts playing: `?t=` as YouTube writes it — "102", "1m42s", "1h2m3s".

/** The longest media a moment may be in (48 hours), as the comment rules have it. */
const longest = 172_800;

/**
 * Seconds from a `?t=` value: whole seconds ("102", "102s") or hours, minutes and seconds in that
 * order, each at most once ("1h2m3s", "1m42s", "2m", "1h"). Null for anything else (empty, negative,
 * fractions, other units, past 48 hours): the page then starts at the beginning.
 */
export function parseStartTime(value: string | string[] | null | undefined): number | null {
  if (typeof value !== "string") return null;
  const text = value.trim().toLowerCase();
  if (/^\d{1,6}s?$/.test(text)) {
    const seconds = Number.parseInt(text, 10);
    return seconds <= longest ? seconds : null;
  }
  const match = /^(?:(\d{1,2})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s)?$/.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined && match[3] === undefined)) return null;
  const [hours, minutes, seconds] = [match[1], match[2], match[3]].map((part) => (part === undefined ? 0 : Number(part)));
  const total = hours * 3600 + minutes * 60 + seconds;
  return total <= longest ? total : null;
}

// A moment's time as people read and type it: "1:42", "0:05", "1:02:05".

/** 102.7 → "1:42" (whole seconds, as players show them), 3725 → "1:02:05". */
export function formatMomentTime(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * What a person typed as a time: "1:42", "1:02:05", "102" or "-0:05" (negative, so the form can say
 * why it is refused). Null when it is not a time at all.
 */
export function parseMomentTime(text: string): number | null {
  const trimmed = text.trim();
  const match = /^(-)?(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(trimmed);
  if (!match) return null;
  const [, minus, first, second, last] = match;
  const parts = [first, second].filter((part): part is string => part !== undefined).map(Number);
  const seconds = Number(last);
  if (parts.length && seconds >= 60) return null;
  if (parts.length === 2 && parts[1] >= 60) return null;
  const value = parts.reduce((sum, part) => sum * 60 + part, 0) * 60 + seconds;
  const whole = parts.length ? value : seconds;
  return minus ? -whole : whole;
}

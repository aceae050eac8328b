// Where the room reacted: a post's comments and reactions counted along its timeline
// (public.post_heat), and the words of its hottest moments. Pure: the page draws it on the server
// and the browser reads it again when the room's channel says something changed.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { formatMomentTime } from "./time";

/** How many equal parts the strip has (the database takes 1–200). */
export const heatParts = 48;

/** One part of the timeline with something in it. */
export interface HeatPart {
  /** Seconds where the part starts and ends. */
  from: number;
  to: number;
  comments: number;
  reactions: number;
  /** 1–3 for the three hottest moments, else null. */
  hot: number | null;
  /** The busiest second in the part: where its jump point seeks to. */
  peak: number;
}

type Row = Database["public"]["Functions"]["post_heat"]["Returns"][number];
type Data = Pick<SupabaseClient<Database>, "rpc">;

/** Rows as the database answers them, checked by plain code (a row that does not fit is left out). */
export function shapeHeat(rows: unknown): HeatPart[] {
  if (!Array.isArray(rows)) return [];
  const parts: HeatPart[] = [];
  for (const row of rows as Partial<Row>[]) {
    const [from, to, comments, reactions, peak] = [row.starts_at, row.ends_at, row.comments, row.reactions, row.peak_at].map(Number);
    if (![from, to, comments, reactions, peak].every(Number.isFinite) || to <= from) continue;
    parts.push({ from, to, comments, reactions, peak, hot: typeof row.hot === "number" ? row.hot : null });
  }
  return parts.sort((a, b) => a.from - b.from);
}

/** The post's heat as the caller may read it; null when it could not be read (the strip keeps what it has). */
export async function getPostHeat(supabase: Data, postId: string): Promise<HeatPart[] | null> {
  const { data, error } = await supabase.rpc("post_heat", { post_id: postId, buckets: heatParts });
  return error ? null : shapeHeat(data);
}

/** The hottest moments, hottest first. */
export const hotspots = (parts: readonly HeatPart[]): HeatPart[] =>
  parts.filter((part) => part.hot !== null).sort((a, b) => a.hot! - b.hot!);

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "38 comments", "38 comments and 12 reactions", "3 reactions". */
export function heatCounts(part: Pick<HeatPart, "comments" | "reactions">): string {
  const words = [part.comments ? count(part.comments, "comment") : "", part.reactions ? count(part.reactions, "reaction") : ""];
  return words.filter(Boolean).join(" and ");
}

/** A jump point's accessible name: "Jump to 2:14 — 38 comments and 12 reactions". */
export const hotspotLabel = (part: HeatPart): string => `Jump to ${formatMomentTime(part.peak)} — ${heatCounts(part)}`;

/**
 * Where each part sits along a timeline of `duration` seconds (0–1) and how strongly it shows (0–1,
 * against the busiest part; never fainter than a trace, so a lone comment still shows).
 */
export function heatBars(parts: readonly HeatPart[], duration: number): { left: number; width: number; level: number }[] {
  if (!(duration > 0) || !parts.length) return [];
  const most = Math.max(...parts.map((part) => part.comments + part.reactions));
  return parts
    .filter((part) => part.from < duration)
    .map((part) => ({
      left: part.from / duration,
      width: (Math.min(part.to, duration) - part.from) / duration,
      level: most ? Math.max(0.15, (part.comments + part.reactions) / most) : 0,
    }));
}

import type { SupabaseClient } from "@supabase/supabase-js";
import type { Result } from "@/lib/result";
import { isUuid } from "@/lib/validation/ids";
import type { Database } from "@/types/database";

// Posts and comments found by their words (public.search_content: the tables' policies decide
// what the caller may find). For Server Components.

type Client = SupabaseClient<Database>;
type Row = Database["public"]["Functions"]["search_content"]["Returns"][number];

export interface FoundItem {
  kind: "post" | "comment";
  id: string;
  postId: string;
  roomSlug: string;
  roomName: string;
  /** The post's title, matched words marked (lib/search/highlight.ts). */
  title: string;
  /** The comment's words, or the post's text, around the match; marked likewise. */
  snippet: string;
  atSeconds: number | null;
  author: string | null;
  /** Where the result leads: a comment's own address (its post, at its time, picked out), or the post. */
  href: string;
}

export interface FoundPage {
  items: FoundItem[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export const searchPageSize = 20;
/** The longest search read; the database reads at most 200 characters of it as well. */
export const searchMaxLength = 80;

export async function searchContent(
  supabase: Client,
  query: string,
  { cursor = null, pageSize = searchPageSize }: { cursor?: string | null; pageSize?: number } = {},
): Promise<Result<FoundPage>> {
  const text = query.trim().slice(0, searchMaxLength);
  if (!text) return { ok: true, data: { items: [], nextCursor: null } };
  const after = cursor ? decodeSearchCursor(cursor) : null;
  const { data, error } = await supabase.rpc("search_content", {
    query: text,
    page_size: pageSize + 1,
    ...(after ? { before_rank: after.rank, before_id: after.id } : {}),
  });
  if (error) return { ok: false, error: "We couldn't search posts and comments — try again in a moment." };
  const rows = data.slice(0, pageSize);
  const last = rows.at(-1);
  return {
    ok: true,
    data: {
      items: rows.map(foundItem),
      nextCursor: data.length > pageSize && last ? encodeSearchCursor(last.rank, last.id) : null,
    },
  };
}

function foundItem(row: Row): FoundItem {
  const kind = row.kind === "comment" ? "comment" : "post";
  return {
    kind,
    id: row.id,
    postId: row.post_id,
    roomSlug: row.room_slug,
    roomName: row.room_name,
    title: row.post_title,
    snippet: row.snippet ?? "",
    atSeconds: row.at_seconds ?? null,
    author: row.author_display_name || row.author_username || null,
    href: kind === "comment" ? `/m/${row.id}` : `/r/${row.room_slug}/p/${row.post_id}`,
  };
}

/** A page boundary as URL-safe text: the last row's rank and id. */
export function encodeSearchCursor(rank: number, id: string): string {
  return Buffer.from(`${rank}|${id}`).toString("base64url");
}

/** The boundary a cursor names, or null for anything that is not one (a mangled URL starts over). */
export function decodeSearchCursor(cursor: string): { rank: number; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(cursor)) return null;
  const [rank, id, extra] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (extra !== undefined || !id || !isUuid(id) || !/^[0-9.e+-]{1,30}$/.test(rank ?? "")) return null;
  const value = Number(rank);
  return Number.isFinite(value) ? { rank: value, id } : null;
}

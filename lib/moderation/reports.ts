import type { SupabaseClient } from "@supabase/supabase-js";
import { messages } from "@/lib/messages";
import { type Result, fail, ok } from "@/lib/result";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import type { Database, Tables } from "@/types/database";

// Reports and the moderation queue as Postgres holds them (supabase/migrations/
// 20261129000600_reports.sql): a member reports a post or a comment once (public.report_content);
// enough members of at least a day hide it until the owner or a moderator removes it
// (public.remove_content) or dismisses the reports (public.dismiss_reports); a held comment is
// approved with public.approve_comment. The rules here let a form check first; the database decides,
// and its refusals are sentences shown as they are. Every call takes the caller's client (a server
// action's, or the page's data client), so the policies and functions see who is asking.

type Client = Pick<SupabaseClient<Database>, "rpc">;

export const reportCategories = ["spam", "harassment", "hate", "sexual", "other"] as const;
export type ReportCategory = (typeof reportCategories)[number];

/** What each category is called where a person picks one. */
export const reportCategoryLabels: Record<ReportCategory, string> = {
  spam: "Spam",
  harassment: "Harassment",
  hate: "Hate",
  sexual: "Sexual content",
  other: "Something else",
};

export const reportLimits = { noteMax: 500, reasonMax: 500, queuePageMax: 100 } as const;

export const reportMessages = {
  category: "Choose what is wrong: spam, harassment, hate, sexual content or something else",
  noteTooLong: `Notes are up to ${reportLimits.noteMax} characters`,
  reasonTooLong: `Reasons are up to ${reportLimits.reasonMax} characters`,
  oneItem: "Name one post or one comment",
  reported: "Reported — thank you. Moderators will review it.",
  hidden: "Hidden until a moderator reviews it",
} as const;

/** A post or a comment: exactly one. */
export type ReportedItem = { postId: string; momentId?: undefined } | { momentId: string; postId?: undefined };

const itemFields = {
  postId: uuidField("Not a valid post").optional(),
  momentId: uuidField("Not a valid comment").optional(),
};
const exactlyOne = (item: { postId?: string; momentId?: string }) => (item.postId ? 1 : 0) + (item.momentId ? 1 : 0) === 1;

export const reportInputSchema = z
  .object({
    ...itemFields,
    category: z.enum(reportCategories, { message: reportMessages.category }),
    note: z.string().trim().max(reportLimits.noteMax, reportMessages.noteTooLong).default(""),
  })
  .refine(exactlyOne, { message: reportMessages.oneItem, path: ["postId"] });
export type ReportInput = z.input<typeof reportInputSchema>;

export const resolutionInputSchema = z
  .object({ ...itemFields, reason: z.string().trim().max(reportLimits.reasonMax, reportMessages.reasonTooLong).default("") })
  .refine(exactlyOne, { message: reportMessages.oneItem, path: ["postId"] });
export type ResolutionInput = z.input<typeof resolutionInputSchema>;

export const approvalInputSchema = z.object({
  momentId: uuidField("Not a valid comment"),
  reason: z.string().trim().max(reportLimits.reasonMax, reportMessages.reasonTooLong).default(""),
});
export type ApprovalInput = z.input<typeof approvalInputSchema>;

export type Report = Tables<"reports">;

/** One entry of the queue: a reported post or comment, or a held comment, with its open reports. */
export interface QueueItem {
  itemId: string;
  kind: "post" | "comment";
  postId: string;
  momentId: string | null;
  postTitle: string;
  body: string;
  atSeconds: number | null;
  author: { id: string; username: string; displayName: string };
  createdAt: string;
  hiddenAt: string | null;
  heldAt: string | null;
  reportCount: number;
  categories: ReportCategory[];
  reports: QueueReport[];
  /** When it last needed a look (its newest open report, or when it was held): the queue's order and page key. */
  queuedAt: string;
}

export interface QueueReport {
  id: string;
  category: ReportCategory;
  note: string;
  createdAt: string;
  reporter: { id: string; username: string | null; displayName: string | null };
}

export interface QueuePage {
  items: QueueItem[];
  /** Where the next page starts; null when this one was the last. */
  next: { before_at: string; before_id: string } | null;
}

interface DbError {
  code?: string;
  message: string;
}

/** Constraint names whose refusal the database words only in its catalog: the words people read. */
const constraintWords: Record<string, string> = {
  reports_category: reportMessages.category,
  reports_note_length: reportMessages.noteTooLong,
  reports_note_characters: "Notes can't contain control characters",
  room_blocked_terms_once: "That term is already blocked",
  room_blocked_terms_length: "Blocked terms are 1–60 characters",
  room_blocked_terms_trimmed: "Enter a word or phrase, without spaces around it",
  room_blocked_terms_characters: "Blocked terms can't contain control characters",
};

/**
 * A database refusal as a person reads it: a constraint's words, the functions' own sentences as
 * they are, "session ended" for a call the caller's role may not make, else `fallback`.
 */
export function reportError(error: DbError, fallback: string): string {
  const constraint = Object.keys(constraintWords).find((name) => error.message.includes(`"${name}"`));
  if (constraint) return constraintWords[constraint]!;
  if (!error.code || error.code.startsWith("PGRST")) return fallback;
  if (/^permission denied/i.test(error.message)) return messages.sessionEnded;
  if (/violates|relation|column|syntax|function/i.test(error.message)) return fallback;
  return error.message;
}

const itemArgs = (item: { postId?: string; momentId?: string }) => ({
  ...(item.postId ? { post_id: item.postId } : {}),
  ...(item.momentId ? { moment_id: item.momentId } : {}),
});

/** Reports a post or comment for the caller; the report as stored. */
export async function reportContent(client: Client, input: ReportInput): Promise<Result<Report>> {
  const parsed = reportInputSchema.safeParse(input);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? reportMessages.oneItem);
  const { category, note } = parsed.data;
  const { data, error } = await client.rpc("report_content", { category, note, ...itemArgs(parsed.data) });
  if (error) return fail(reportError(error, "We couldn't send your report — try again."));
  return ok(data as Report);
}

/** Owner and moderators: deletes the post or comment; its open reports become actioned. */
export async function removeContent(client: Client, input: ResolutionInput): Promise<Result> {
  const parsed = resolutionInputSchema.safeParse(input);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? reportMessages.oneItem);
  const { error } = await client.rpc("remove_content", { reason: parsed.data.reason, ...itemArgs(parsed.data) });
  if (error) return fail(reportError(error, "We couldn't remove it — try again."));
  return ok();
}

/** Owner and moderators: dismisses the item's open reports and shows it again; how many were dismissed. */
export async function dismissReports(client: Client, input: ResolutionInput): Promise<Result<number>> {
  const parsed = resolutionInputSchema.safeParse(input);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? reportMessages.oneItem);
  const { data, error } = await client.rpc("dismiss_reports", { reason: parsed.data.reason, ...itemArgs(parsed.data) });
  if (error) return fail(reportError(error, "We couldn't dismiss the reports — try again."));
  return ok(data ?? 0);
}

/** Owner and moderators: releases a held comment to everyone. */
export async function approveComment(client: Client, input: ApprovalInput): Promise<Result> {
  const parsed = approvalInputSchema.safeParse(input);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? "Not a valid comment");
  const { error } = await client.rpc("approve_comment", { moment_id: parsed.data.momentId, reason: parsed.data.reason });
  if (error) return fail(reportError(error, "We couldn't approve it — try again."));
  return ok();
}

type QueueRow = Database["public"]["Functions"]["moderation_queue"]["Returns"][number];

function queueReport(entry: unknown): QueueReport {
  const r = (entry ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: String(r.id ?? ""),
    category: (reportCategories as readonly string[]).includes(String(r.category)) ? (r.category as ReportCategory) : "other",
    note: text(r.note) ?? "",
    createdAt: text(r.created_at) ?? "",
    reporter: { id: String(r.reporter_id ?? ""), username: text(r.reporter_username), displayName: text(r.reporter_display_name) },
  };
}

/** A row of public.moderation_queue in the app's shape. */
export function queueItemFromRow(row: QueueRow): QueueItem {
  return {
    itemId: row.item_id,
    kind: row.kind === "comment" ? "comment" : "post",
    postId: row.post_id,
    momentId: row.moment_id ?? null,
    postTitle: row.post_title,
    body: row.body ?? "",
    atSeconds: row.at_seconds ?? null,
    author: { id: row.author_id, username: row.author_username, displayName: row.author_display_name },
    createdAt: row.created_at,
    hiddenAt: row.hidden_at ?? null,
    heldAt: row.held_at ?? null,
    reportCount: row.report_count,
    categories: (row.categories ?? []).filter((c): c is ReportCategory => (reportCategories as readonly string[]).includes(c)),
    reports: Array.isArray(row.reports) ? row.reports.map(queueReport) : [],
    queuedAt: row.queued_at,
  };
}

/** Owner and moderators: a page of the room's queue, newest first; `after` is the previous page's `next`. */
export async function moderationQueue(
  client: Client,
  roomId: string,
  after: QueuePage["next"] = null,
  pageSize = 20,
): Promise<Result<QueuePage>> {
  const size = Math.min(Math.max(1, Math.floor(pageSize)), reportLimits.queuePageMax);
  const { data, error } = await client.rpc("moderation_queue", { room_id: roomId, page_size: size, ...(after ?? {}) });
  if (error) return fail(reportError(error, "We couldn't load the queue — try again."));
  const items = (data ?? []).map(queueItemFromRow);
  const last = items.at(-1);
  return ok({ items, next: items.length === size && last ? { before_at: last.queuedAt, before_id: last.itemId } : null });
}

/** The moderators' topic of a room at an access epoch: signals (ids only) that the queue changed. */
export function moderationTopic(roomId: string, epoch = 0): string {
  return epoch > 0 ? `moderation:${roomId}:${epoch}` : `moderation:${roomId}`;
}

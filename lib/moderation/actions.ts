"use server";

// The moderation writes of bans, timeouts and slow mode: each runs as the signed-in person through
// the server client, so Postgres' functions (public.ban_member, unban_member, time_out_member,
// lift_timeout, set_slow_mode, set_report_threshold) decide who may act on whom; what they refuse
// comes back as a sentence. Each answers a Result and refreshes the room's pages.
import { revalidatePath } from "next/cache";
import { type Result, fail, ok } from "@/lib/result";
import { type ServerClient, action } from "@/lib/server-action";
import { moderationActionError } from "./errors";
import {
  type BanInput,
  type TimeoutInput,
  banInputSchema,
  memberTargetSchema,
  reportThresholdInputSchema,
  slowModeInputSchema,
  timeoutInputSchema,
} from "./rules";

async function refreshRoom(supabase: ServerClient, roomId: string): Promise<void> {
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  if (data?.slug) revalidatePath(`/r/${data.slug}`, "layout");
}

export interface BanResult {
  userId: string;
  /** When the ban ends (ISO); null: for good. */
  expiresAt: string | null;
}

/** Owner and moderators: bans the person (ends their membership; for good unless `expiresAt`). */
export async function banMember(input: BanInput): Promise<Result<BanResult>> {
  return action(banInputSchema, input, async ({ roomId, userId, reason, expiresAt }, { supabase }) => {
    const { data, error } = await supabase.rpc("ban_member", {
      room_id: roomId,
      user_id: userId,
      reason,
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
    if (error) return fail(moderationActionError(error, "We couldn't ban them — try again."));
    await refreshRoom(supabase, roomId);
    return ok({ userId, expiresAt: data?.expires_at ?? null });
  });
}

/** Owner and moderators: lifts the person's ban. */
export async function unbanMember(roomId: string, userId: string): Promise<Result> {
  return action(memberTargetSchema, { roomId, userId }, async ({ roomId, userId }, { supabase }) => {
    const { error } = await supabase.rpc("unban_member", { room_id: roomId, user_id: userId });
    if (error) return fail(moderationActionError(error, "We couldn't lift the ban — try again."));
    await refreshRoom(supabase, roomId);
    return ok();
  });
}

export interface TimeoutResult {
  userId: string;
  /** When the timeout ends (ISO). */
  expiresAt: string;
}

/** Owner and moderators: the person reads and listens but writes nothing for `minutes` (10 to 28 days). */
export async function timeOutMember(input: TimeoutInput): Promise<Result<TimeoutResult>> {
  return action(timeoutInputSchema, input, async ({ roomId, userId, minutes, reason }, { supabase }) => {
    const { data, error } = await supabase.rpc("time_out_member", { room_id: roomId, user_id: userId, minutes, reason });
    if (error) return fail(moderationActionError(error, "We couldn't time them out — try again."));
    await refreshRoom(supabase, roomId);
    return ok({ userId, expiresAt: data.expires_at });
  });
}

/** Owner and moderators: ends the person's timeout now. */
export async function liftTimeout(roomId: string, userId: string): Promise<Result> {
  return action(memberTargetSchema, { roomId, userId }, async ({ roomId, userId }, { supabase }) => {
    const { error } = await supabase.rpc("lift_timeout", { room_id: roomId, user_id: userId });
    if (error) return fail(moderationActionError(error, "We couldn't lift the timeout — try again."));
    await refreshRoom(supabase, roomId);
    return ok();
  });
}

/** Owner and moderators: the least seconds between one person's comments (0: off, 5 to 3600). */
export async function setSlowMode(roomId: string, seconds: number): Promise<Result<number>> {
  return action(slowModeInputSchema, { roomId, seconds }, async ({ roomId, seconds }, { supabase }) => {
    const { data, error } = await supabase.rpc("set_slow_mode", { room_id: roomId, seconds });
    if (error) return fail(moderationActionError(error, "We couldn't change slow mode — try again."));
    await refreshRoom(supabase, roomId);
    return ok(data);
  });
}

/** Owner only: how many distinct members' reports hide a post or comment (1 to 100). */
export async function setReportThreshold(roomId: string, threshold: number): Promise<Result<number>> {
  return action(reportThresholdInputSchema, { roomId, threshold }, async ({ roomId, threshold }, { supabase }) => {
    const { data, error } = await supabase.rpc("set_report_threshold", { room_id: roomId, threshold });
    if (error) return fail(moderationActionError(error, "We couldn't change the report threshold — try again."));
    await refreshRoom(supabase, roomId);
    return ok(data);
  });
}

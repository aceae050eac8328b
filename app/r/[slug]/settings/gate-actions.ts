"use server";

import { revalidatePath } from "next/cache";
import { prepareGate } from "@/lib/chain/tokens";
import { type GateFormValues, gateFormErrors } from "@/lib/rooms/gate-form";
import { roomWriteError } from "@/lib/rooms/write-errors";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { gateInputSchema } from "@/lib/validation/room";

// Gate editing, owner only: set_room_gate refuses anyone else (and row-level security on
// room_gates agrees). The token is read on chain before every save, not only at "Check token".

export type GateCheck = { ok: true; label: string } | { ok: false; errors: Partial<Record<keyof GateFormValues, string>>; message?: string };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sessionEnded = "Your session has ended — sign in again.";

async function prepare(values: GateFormValues) {
  const parsed = gateInputSchema.safeParse(values);
  if (!parsed.success) return { ok: false as const, check: { ok: false as const, errors: gateFormErrors(parsed.error) } };
  const prepared = await prepareGate(parsed.data);
  if (!prepared.ok) return { ok: false as const, check: { ok: false as const, errors: { [prepared.error.field]: prepared.error.message } } };
  return { ok: true as const, data: prepared.data };
}

/** "Check token": what the contract is, read on chain, for the owner to confirm before saving. */
export async function checkGateToken(values: GateFormValues): Promise<GateCheck> {
  if (!(await verifiedUserId(await createClient()))) return { ok: false, errors: {}, message: sessionEnded };
  const prepared = await prepare(values);
  return prepared.ok ? { ok: true, label: prepared.data.token.label } : prepared.check;
}

/** Sets or replaces the room's gate (the room becomes gated), after reading the token again. */
export async function saveRoomGate(roomId: string, values: GateFormValues): Promise<GateCheck> {
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { ok: false, errors: {}, message: "This room no longer exists." };
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { ok: false, errors: {}, message: sessionEnded };
  const prepared = await prepare(values);
  if (!prepared.ok) return prepared.check;
  const { error } = await supabase.rpc("set_room_gate", { room_id: roomId, gate: { ...prepared.data.record } });
  if (error) {
    const problem = roomWriteError(error, "We couldn't save the gate — try again in a moment.");
    return problem.field ? { ok: false, errors: { [problem.field]: problem.message } } : { ok: false, errors: {}, message: problem.message };
  }
  await revalidateRoom(supabase, roomId);
  return { ok: true, label: prepared.data.token.label };
}

/** Removes the gate: anyone signed in may join again. Members stay members. */
export async function makeRoomPublic(roomId: string): Promise<{ ok: true } | { ok: false; error: string }> {
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { ok: false, error: "This room no longer exists." };
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { ok: false, error: sessionEnded };
  const { error } = await supabase.rpc("set_room_gate", { room_id: roomId, gate: null });
  if (error) return { ok: false, error: roomWriteError(error, "We couldn't make the room public — try again in a moment.").message };
  await revalidateRoom(supabase, roomId);
  return { ok: true };
}

async function revalidateRoom(supabase: Awaited<ReturnType<typeof createClient>>, roomId: string) {
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  if (data) revalidatePath(`/r/${data.slug}`, "layout");
  revalidatePath("/");
}

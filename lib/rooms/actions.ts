"use server";

// The rooms' writes: creating one, joining and leaving, and the settings page's (the room's fields,
// who starts sessions, its cover, members' roles, the gate, deleting it). Each runs as the signed-in
// person through the server client, so Postgres (row-level security, the rooms migration's guards,
// the room-covers policies) decides; what it refuses comes back as a sentence. Every form keeps what
// was typed: these return the values they were given, and the forms never remount their fields.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { type GateToken, prepareGate } from "@/lib/chain/tokens";
import { sessionEndedThen, sessionEndedTo } from "@/lib/messages";
import { type Result, fail, ok } from "@/lib/result";
import { type ServerClient, action, prelude, refusedForm, signedIn } from "@/lib/server-action";
import { isUuid } from "@/lib/validation/ids";
import { fieldErrors } from "@/lib/validation/profile";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import { type RoomGateRecord, gateInputSchema, roomFieldsSchema, roomMessages, sessionStartersSchema } from "@/lib/validation/room";
import { textMessages } from "@/lib/validation/text";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import { coverBucket, isCoverPathOf } from "./covers";
import {
  type CreateRoomField,
  type CreateRoomState,
  type CreateRoomValues,
  type DeleteRoomState,
  type GateCheck,
  type GateProblem,
  type MembershipFormState,
  type RoomFieldsState,
  type SessionStartersState,
  gateFingerprint,
} from "./form-state";
import type { GateFormValues } from "./gate-form";
import { joinRoom } from "./join";
import { type RoomSettingsFields, roomSettingsSchema } from "./settings-fields";
import { slugFromName } from "./slug";
import { roomWriteError, unreachable } from "./write-errors";

// ---- Creating a room ----

/** Postgres constraint → the field and words the form shows (the same words as the constraints' comments). */
const constraintMessages: Record<string, [CreateRoomField, string]> = {
  rooms_slug_key: ["slug", roomMessages.slugTaken],
  rooms_slug_format: ["slug", roomMessages.slugFormat],
  rooms_name_length: ["name", roomMessages.nameTooLong],
  rooms_description_length: ["description", roomMessages.descriptionTooLong],
  rooms_name_characters: ["name", textMessages.lineCharacters],
  rooms_description_characters: ["description", textMessages.bodyCharacters],
  room_gates_chain_supported: ["chainId", roomMessages.chainUnsupported],
  room_gates_contract_address_format: ["contractAddress", roomMessages.contractAddressFormat],
  room_gates_token_id_for_erc1155: ["tokenId", roomMessages.tokenIdRequired],
  room_gates_token_id_format: ["tokenId", roomMessages.tokenIdFormat],
  room_gates_min_balance_positive: ["minBalance", roomMessages.minBalanceFormat],
  room_gates_numbers_in_uint256: ["minBalance", roomMessages.minBalanceTooLarge],
};

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

function readValues(formData: FormData): CreateRoomValues {
  return {
    name: text(formData, "name"),
    slug: text(formData, "slug"),
    description: text(formData, "description"),
    access: text(formData, "access") === "token" ? "token" : "open",
    chainId: text(formData, "chainId"),
    standard: text(formData, "standard"),
    contractAddress: text(formData, "contractAddress"),
    tokenId: text(formData, "tokenId"),
    minBalance: text(formData, "minBalance"),
  };
}

/**
 * Checks the gate's token ("Check token") or creates the room ("Create room"). A gated room is
 * created only after the person has seen the token the check found for exactly these inputs; the
 * token is read on chain again when creating. Everything typed comes back in the state.
 */
export async function createRoomAction(_previous: CreateRoomState, formData: FormData): Promise<CreateRoomState> {
  const values = readValues(formData);
  const intent = text(formData, "intent") === "check" ? "check" : "create";
  // Without JavaScript nothing fills the address in from the name: suggest it here.
  if (!values.slug.trim()) values.slug = slugFromName(values.name);
  const refuse = (errors: CreateRoomState["errors"], message?: string, token?: CreateRoomState["token"]): CreateRoomState => ({
    status: "error",
    values,
    errors,
    message,
    token,
  });

  const fields = roomFieldsSchema.safeParse({ slug: values.slug, name: values.name, description: values.description });
  const gated = values.access === "token";
  const gate = gated
    ? gateInputSchema.safeParse({
        chainId: values.chainId,
        contractAddress: values.contractAddress,
        standard: values.standard,
        // the token id field is hidden for other standards: whatever it still holds is not part of the gate
        tokenId: values.standard === "erc1155" ? values.tokenId : "",
        minBalance: values.minBalance,
      })
    : null;

  if (intent === "check") {
    if (!gated) return refuse({}, "Choose “Holders of a token” to check a token.");
    if (!gate?.success) return refuse(gate ? fieldErrors(gate.error) : {});
  } else {
    const errors = { ...(fields.success ? {} : fieldErrors(fields.error)), ...(gate && !gate.success ? fieldErrors(gate.error) : {}) };
    if (!fields.success || (gate && !gate.success)) return refuse(errors);
  }

  const caller = await signedIn({ sessionEnded: `${sessionEndedTo("create the room")} What you typed is still here.` });
  if (!caller.ok) return refuse({}, caller.error);
  const { supabase } = caller.data;

  let gateRecord = null;
  let token: CreateRoomState["token"];
  if (gate?.success) {
    const prepared = await prepareGate(gate.data);
    if (!prepared.ok) return refuse({ [prepared.error.field]: prepared.error.message });
    gateRecord = prepared.data.record;
    token = { label: prepared.data.token.label, fingerprint: gateFingerprint(values) };
    if (intent === "check") return { status: "checked", values, errors: {}, token };
    if (text(formData, "checkedGate") !== token.fingerprint) {
      return { status: "checked", values, errors: {}, token, message: "Check that this is the token you mean, then create the room." };
    }
  }
  if (!fields.success) return refuse({});

  const { error } = await supabase.rpc("create_room", {
    slug: fields.data.slug,
    name: fields.data.name,
    description: fields.data.description,
    gate: gateRecord ? ({ ...gateRecord } satisfies Record<string, string | number | null>) : undefined,
  });
  if (error) {
    const constraint = Object.keys(constraintMessages).find((name) => error.message.includes(name) || error.details?.includes(name));
    if (constraint) {
      const [field, message] = constraintMessages[constraint];
      return refuse({ [field]: message }, undefined, token);
    }
    return refuse({}, rateLimitRefusal(error) ?? "We couldn't create the room — try again in a moment.", token);
  }
  redirect(`/r/${fields.data.slug}`);
}

// ---- Joining and leaving ----

const roomGoneMessage = "This room doesn't exist any more — it may have been deleted.";
const membershipInput = z.object({ roomId: uuidField(roomGoneMessage) });
const membershipFailed = (doing: string): MembershipFormState => ({
  status: "error",
  message: `We couldn't ${doing} — try again in a moment.`,
});

/**
 * Join: an open room by inserting the person's own membership through the data API (the policy
 * allows it for public rooms only); a gated room through the join-room function, which reads the
 * person's linked wallets on chain and answers with the reason when none holds enough.
 */
export async function joinRoomAction(_previous: MembershipFormState, formData: FormData): Promise<MembershipFormState> {
  const started = await prelude(membershipInput, { roomId: formData.get("roomId") }, { sessionEnded: sessionEndedThen("join") });
  if (!started.ok) return { status: "error", message: started.error.message };
  const { supabase, userId, input } = started.data;

  const { data: room, error: readError } = await supabase.from("rooms").select("id, slug, visibility").eq("id", input.roomId).maybeSingle();
  if (readError) return membershipFailed("join this room");
  if (!room) return { status: "error", message: roomGoneMessage };

  if (room.visibility === "public") {
    const { error } = await supabase.from("memberships").insert({ room_id: room.id, user_id: userId });
    // 23505: already a member (another tab, a double click) — the outcome asked for.
    if (error && error.code !== "23505") return membershipFailed("join this room");
  } else {
    const joined = await joinRoom(supabase, room.id);
    if (!joined.ok) {
      return {
        status: "error",
        message: joined.error.error,
        linkWallet: joined.error.code === "no_wallet" || joined.error.code === "not_enough_tokens",
      };
    }
  }
  revalidatePath(`/r/${room.slug}`);
  revalidatePath("/");
  return { status: "joined" };
}

/** Leave: the person deletes their own membership (the policy never lets the owner leave). */
export async function leaveRoomAction(_previous: MembershipFormState, formData: FormData): Promise<MembershipFormState> {
  const started = await prelude(membershipInput, { roomId: formData.get("roomId") }, { sessionEnded: sessionEndedThen("leave") });
  if (!started.ok) return { status: "error", message: started.error.message };
  const { supabase, userId, input } = started.data;

  const { data: room } = await supabase.from("rooms").select("slug").eq("id", input.roomId).maybeSingle();
  const { data, error } = await supabase.from("memberships").delete().eq("room_id", input.roomId).eq("user_id", userId).select("role");
  if (error) return membershipFailed("take you out of this room");
  if (!data.length) {
    const { data: own } = await supabase.from("memberships").select("role").eq("room_id", input.roomId).eq("user_id", userId).maybeSingle();
    if (own?.role === "owner") return { status: "error", message: "You own this room, so you can't leave it." };
  }
  if (room) revalidatePath(`/r/${room.slug}`);
  revalidatePath("/");
  return { status: "left" };
}

// ---- Settings ----

const roomNoLongerExists = "This room no longer exists.";
const roomDoesNotExist = "That room doesn't exist.";
const notInRoom = "That member isn't in this room.";

async function roomSlug(supabase: ServerClient, roomId: string): Promise<string | null> {
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  return data?.slug ?? null;
}

/**
 * Name and description (owner and moderators), address (owner only: the form sends it only to the
 * owner, and Postgres refuses anyone else's change). A new address moves the page to it.
 */
export async function updateRoomFields(roomId: string, _previous: RoomFieldsState, formData: FormData): Promise<RoomFieldsState> {
  const values: RoomSettingsFields = {
    name: String(formData.get("name") ?? ""),
    description: String(formData.get("description") ?? ""),
    ...(formData.has("slug") ? { slug: String(formData.get("slug") ?? "") } : {}),
  };
  if (!isUuid(roomId)) return { status: "error", values, errors: {}, message: roomNoLongerExists };
  const started = await prelude(roomSettingsSchema, values);
  if (!started.ok) return { ...refusedForm(started.error), values };
  const { supabase, input } = started.data;

  const before = await roomSlug(supabase, roomId);
  const changes = {
    name: input.name,
    description: input.description,
    ...(input.slug !== undefined && input.slug !== before ? { slug: input.slug } : {}),
  };
  const { data, error } = await supabase.from("rooms").update(changes).eq("id", roomId).select("slug");
  if (error) {
    const problem = roomWriteError(error, "We couldn't save the room — try again in a moment.");
    return problem.field
      ? { status: "error", values, errors: { [problem.field]: problem.message } }
      : { status: "error", values, errors: {}, message: problem.message };
  }
  if (!data?.length) return { status: "error", values, errors: {}, message: "Only the room's owner and moderators can edit it." };
  revalidatePath("/");
  if (before) revalidatePath(`/r/${before}`, "layout");
  if (data[0].slug !== before) redirect(`/r/${data[0].slug}/settings?moved=1`);
  revalidatePath(`/r/${data[0].slug}`, "layout");
  return { status: "saved", values, errors: {} };
}

/** Owner only (the rooms trigger refuses anyone else's change): who may start listening sessions. */
export async function updateSessionStarters(
  roomId: string,
  _previous: SessionStartersState,
  formData: FormData,
): Promise<SessionStartersState> {
  const value = String(formData.get("sessionStarters") ?? "");
  if (!isUuid(roomId)) return { status: "error", value, error: roomNoLongerExists };
  const started = await prelude(sessionStartersSchema, { sessionStarters: value });
  if (!started.ok) return { status: "error", value, error: started.error.message };
  const { supabase, input } = started.data;
  const { data, error } = await supabase.from("rooms").update({ session_starters: input.sessionStarters }).eq("id", roomId).select("slug");
  if (error)
    return {
      status: "error",
      value,
      error: roomWriteError(error, "We couldn't save who can start listening sessions — try again.").message,
    };
  if (!data?.length) return { status: "error", value, error: "Only the room's owner decides who may start listening sessions." };
  revalidatePath(`/r/${data[0].slug}`, "layout");
  return { status: "saved", value };
}

const coverNotThisRoom = "That upload doesn't belong to this room.";
const coverInput = z
  .object({ roomId: uuidField(coverNotThisRoom), path: z.string(coverNotThisRoom) })
  .refine(({ roomId, path }) => isCoverPathOf(roomId, path), coverNotThisRoom);

/** Points the room at a newly uploaded cover and removes the one it replaces. */
export async function setRoomCover(roomId: string, path: string): Promise<Result> {
  return action(coverInput, { roomId, path }, async ({ roomId, path }, { supabase }) => {
    const { data: before } = await supabase.from("rooms").select("slug, cover_path").eq("id", roomId).maybeSingle();
    const { data, error } = await supabase.from("rooms").update({ cover_path: path }).eq("id", roomId).select("slug");
    if (error || !data?.length) {
      await supabase.storage.from(coverBucket).remove([path]);
      if (error) return fail(roomWriteError(error, "We couldn't save the new cover — try again.").message);
      return fail("Only the room's owner and moderators can change its cover.");
    }
    if (before?.cover_path && before.cover_path !== path) await supabase.storage.from(coverBucket).remove([before.cover_path]);
    revalidatePath(`/r/${data[0].slug}`, "layout");
    revalidatePath("/");
    return ok();
  });
}

/** Takes the cover off the room and removes its file. */
export async function removeRoomCover(roomId: string): Promise<Result> {
  return action(uuidField(roomDoesNotExist), roomId, async (roomId, { supabase }) => {
    const { data: before } = await supabase.from("rooms").select("cover_path").eq("id", roomId).maybeSingle();
    const { data, error } = await supabase.from("rooms").update({ cover_path: null }).eq("id", roomId).select("slug");
    if (error) return fail(roomWriteError(error, "We couldn't remove the cover — try again.").message);
    if (!data?.length) return fail("Only the room's owner and moderators can change its cover.");
    if (before?.cover_path) await supabase.storage.from(coverBucket).remove([before.cover_path]);
    revalidatePath(`/r/${data[0].slug}`, "layout");
    revalidatePath("/");
    return ok();
  });
}

const memberInput = z.object({ roomId: uuidField(notInRoom), userId: uuidField(notInRoom) });
const memberRoleInput = memberInput.extend({ role: z.enum(["moderator", "member"], notInRoom) });

/** Owner only (Postgres' policy): a member becomes a moderator or back. */
export async function setMemberRole(roomId: string, userId: string, role: z.output<typeof memberRoleInput>["role"]): Promise<Result> {
  return action(memberRoleInput, { roomId, userId, role }, async ({ roomId, userId, role }, { supabase }) => {
    const { data, error } = await supabase.from("memberships").update({ role }).eq("room_id", roomId).eq("user_id", userId).select("role");
    if (error) return fail(roomWriteError(error, "We couldn't change that role — try again.").message);
    if (!data?.length) return fail("Only the room's owner changes roles, and never their own.");
    const slug = await roomSlug(supabase, roomId);
    if (slug) revalidatePath(`/r/${slug}`, "layout");
    return ok();
  });
}

/** Moderators remove members; the owner removes anyone but themself (Postgres' policy). */
export async function removeMember(roomId: string, userId: string): Promise<Result> {
  return action(memberInput, { roomId, userId }, async ({ roomId, userId }, { supabase }) => {
    const { data, error } = await supabase.from("memberships").delete().eq("room_id", roomId).eq("user_id", userId).select("user_id");
    if (error) return fail(roomWriteError(error, "We couldn't remove that member — try again.").message);
    if (!data?.length) return fail("You can't remove this person: moderators remove members, and only the owner removes moderators.");
    const slug = await roomSlug(supabase, roomId);
    if (slug) revalidatePath(`/r/${slug}`, "layout");
    revalidatePath("/");
    return ok();
  });
}

/**
 * Owner only, after typing the room's address. The cover files go first, through Storage, while the
 * owner's membership still lets them (the room's folder policies ask who the room's owner is).
 */
export async function deleteRoom(roomId: string, _previous: DeleteRoomState, formData: FormData): Promise<DeleteRoomState> {
  const confirmation = String(formData.get("confirmation") ?? "");
  const started = await prelude(uuidField(roomDoesNotExist), roomId);
  if (!started.ok) return { confirmation, error: started.error.message };
  const { supabase, userId } = started.data;
  const { data: room, error: readError } = await supabase.from("rooms").select("slug, owner_id").eq("id", roomId).maybeSingle();
  if (readError) return { confirmation, error: unreachable };
  if (!room) return { confirmation, error: roomNoLongerExists };
  if (confirmation.trim() !== room.slug) return { confirmation, error: `Type ${room.slug} to confirm.` };
  if (room.owner_id !== userId) return { confirmation, error: "Only the room's owner can delete it." };

  const removed = await removeRoomFolder(supabase, roomId);
  if (!removed) return { confirmation, error: "We couldn't remove the room's cover — try again in a moment." };
  const { data, error } = await supabase.from("rooms").delete().eq("id", roomId).select("id");
  if (error) return { confirmation, error: roomWriteError(error, "We couldn't delete the room — try again.").message };
  if (!data?.length) return { confirmation, error: "Only the room's owner can delete it." };
  revalidatePath("/");
  redirect("/");
}

/** Removes every object under `{room id}/` in the covers bucket; false when Storage refused. */
async function removeRoomFolder(supabase: ServerClient, roomId: string): Promise<boolean> {
  for (;;) {
    const { data, error } = await supabase.storage.from(coverBucket).list(roomId, { limit: 1000 });
    if (error) return false;
    if (!data.length) return true;
    const { data: gone, error: removeError } = await supabase.storage
      .from(coverBucket)
      .remove(data.map((item) => `${roomId}/${item.name}`));
    if (removeError || !gone.length) return false;
  }
}

// ---- The gate ----
// Owner only: set_room_gate refuses anyone else (and row-level security on room_gates agrees). The
// token is read on chain before every save, not only at "Check token".

/** The gate typed, checked with its schema, then its token read on chain; or the answer for the form. */
async function preparedGate(
  values: GateFormValues,
  options: { roomId?: string } = {},
): Promise<Result<{ supabase: ServerClient; gate: { record: RoomGateRecord; token: GateToken } }, GateProblem>> {
  if (options.roomId !== undefined && !isUuid(options.roomId)) return fail({ errors: {}, message: roomNoLongerExists });
  const started = await prelude(gateInputSchema, values);
  if (!started.ok)
    return fail(started.error.reason === "invalid" ? { errors: started.error.fields } : { errors: {}, message: started.error.message });
  const prepared = await prepareGate(started.data.input);
  if (!prepared.ok) return fail({ errors: { [prepared.error.field]: prepared.error.message } });
  return ok({ supabase: started.data.supabase, gate: prepared.data });
}

/** "Check token": what the contract is, read on chain, for the owner to confirm before saving. */
export async function checkGateToken(values: GateFormValues): Promise<GateCheck> {
  const prepared = await preparedGate(values);
  return prepared.ok ? ok({ label: prepared.data.gate.token.label }) : prepared;
}

/** Sets or replaces the room's gate (the room becomes gated), after reading the token again. */
export async function saveRoomGate(roomId: string, values: GateFormValues): Promise<GateCheck> {
  const prepared = await preparedGate(values, { roomId });
  if (!prepared.ok) return prepared;
  const { supabase, gate } = prepared.data;
  const { error } = await supabase.rpc("set_room_gate", { room_id: roomId, gate: { ...gate.record } });
  if (error) {
    const problem = roomWriteError(error, "We couldn't save the gate — try again in a moment.");
    return fail(problem.field ? { errors: { [problem.field]: problem.message } } : { errors: {}, message: problem.message });
  }
  await revalidateRoom(supabase, roomId);
  return ok({ label: gate.token.label });
}

/** Removes the gate: anyone signed in may join again. Members stay members. */
export async function makeRoomPublic(roomId: string): Promise<Result> {
  return action(uuidField(roomNoLongerExists), roomId, async (roomId, { supabase }) => {
    const { error } = await supabase.rpc("set_room_gate", { room_id: roomId, gate: null });
    if (error) return fail(roomWriteError(error, "We couldn't make the room public — try again in a moment.").message);
    await revalidateRoom(supabase, roomId);
    return ok();
  });
}

async function revalidateRoom(supabase: ServerClient, roomId: string) {
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  if (data) revalidatePath(`/r/${data.slug}`, "layout");
  revalidatePath("/");
}

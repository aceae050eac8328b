"use server";

import { textMessages } from "@/lib/validation/text";
import { redirect } from "next/navigation";
import { prepareGate } from "@/lib/chain/tokens";
import { slugFromName } from "@/lib/rooms/slug";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { fieldErrors } from "@/lib/validation/profile";
import { gateInputSchema, roomFieldsSchema, roomMessages } from "@/lib/validation/room";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import { type CreateRoomField, type CreateRoomState, type CreateRoomValues, gateFingerprint } from "./form-state";

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
  const fail = (errors: CreateRoomState["errors"], message?: string, token?: CreateRoomState["token"]): CreateRoomState => ({ status: "error", values, errors, message, token });

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
    if (!gated) return fail({}, "Choose “Holders of a token” to check a token.");
    if (!gate?.success) return fail(gate ? fieldErrors(gate.error) : {});
  } else {
    const errors = { ...(fields.success ? {} : fieldErrors(fields.error)), ...(gate && !gate.success ? fieldErrors(gate.error) : {}) };
    if (!fields.success || (gate && !gate.success)) return fail(errors);
  }

  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return fail({}, "Your session has ended — sign in again to create the room. What you typed is still here.");

  let gateRecord = null;
  let token: CreateRoomState["token"];
  if (gate?.success) {
    const prepared = await prepareGate(gate.data);
    if (!prepared.ok) return fail({ [prepared.error.field]: prepared.error.message });
    gateRecord = prepared.data.record;
    token = { label: prepared.data.token.label, fingerprint: gateFingerprint(values) };
    if (intent === "check") return { status: "checked", values, errors: {}, token };
    if (text(formData, "checkedGate") !== token.fingerprint) {
      return { status: "checked", values, errors: {}, token, message: "Check that this is the token you mean, then create the room." };
    }
  }
  if (!fields.success) return fail({});

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
      return fail({ [field]: message }, undefined, token);
    }
    return fail({}, rateLimitRefusal(error) ?? "We couldn't create the room — try again in a moment.", token);
  }
  redirect(`/r/${fields.data.slug}`);
}

// What the rooms' forms send and what their Server Actions (./actions.ts) answer, shared by both.
import type { Result } from "@/lib/result";
import type { GateFormValues } from "./gate-form";
import type { RoomSettingsFields } from "./settings-fields";

export interface CreateRoomValues {
  name: string;
  slug: string;
  description: string;
  /** "open": anyone signed in joins; "token": holders of the gate's token. */
  access: "open" | "token";
  chainId: string;
  standard: string;
  contractAddress: string;
  tokenId: string;
  minBalance: string;
}

export type CreateRoomField = keyof CreateRoomValues;

export interface CheckedToken {
  /** "Token: Cuepoint Backstage Pass (CUEPASS) on Local chain" */
  label: string;
  /** The gate inputs this check answered for; the form sends it back when creating. */
  fingerprint: string;
}

export interface CreateRoomState {
  status: "idle" | "error" | "checked";
  values: CreateRoomValues;
  errors: Partial<Record<CreateRoomField, string>>;
  message?: string;
  token?: CheckedToken;
}

/** Which token a check was for: changing any of these needs a new check. */
export function gateFingerprint(values: Pick<CreateRoomValues, "chainId" | "standard" | "contractAddress">): string {
  return `${values.chainId.trim()}:${values.standard}:${values.contractAddress.trim().toLowerCase()}`;
}

export interface MembershipFormState {
  status: "idle" | "joined" | "left" | "error";
  message?: string;
  /** The refusal is about wallets: the form links to /account to link one. */
  linkWallet?: boolean;
}

export interface RoomFieldsState {
  status: "idle" | "saved" | "error";
  values: RoomSettingsFields;
  errors: Partial<Record<keyof RoomSettingsFields, string>>;
  message?: string;
}

export interface SessionStartersState {
  status: "idle" | "saved" | "error";
  /** What the person chose (kept as sent, so the form shows their choice whatever the answer). */
  value: string;
  error?: string;
}

export interface DeleteRoomState {
  confirmation: string;
  error?: string;
}

/** Why a gate was not checked or saved: errors next to the gate form's fields, or a message above them. */
export interface GateProblem {
  errors: Partial<Record<keyof GateFormValues, string>>;
  message?: string;
}

/** "Check token" and "Save gate": the token's label, or the problem. */
export type GateCheck = Result<{ label: string }, GateProblem>;

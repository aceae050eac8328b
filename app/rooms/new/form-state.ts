// What the create-room form sends and what its Server Action answers, shared by both.

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

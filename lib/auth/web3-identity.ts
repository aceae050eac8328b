import type { User } from "@supabase/supabase-js";

/** Supabase Auth's web3 identities have the subject `web3:ethereum:0x…` and the address in custom_claims. */
export function web3Address(user: Pick<User, "identities">): string | null {
  const identity = user.identities?.find((candidate) => candidate.provider === "web3");
  if (!identity) return null;
  const data = identity.identity_data as { sub?: string; custom_claims?: { address?: string } } | undefined;
  const address = data?.custom_claims?.address ?? data?.sub?.split(":").at(-1);
  return address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address : null;
}

/** 0x1234…abcd */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

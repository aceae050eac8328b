import type { JwtPayload } from "@supabase/supabase-js";

/**
 * The address a wallet (web3) user signed in with, from their verified access-token claims. Only
 * for users whose sign-in provider (app_metadata, which users cannot edit) is web3; the address is
 * the identity data GoTrue copied into user_metadata: `custom_claims.address`, else the subject
 * `web3:ethereum:0x…`.
 */
export function web3AddressFromClaims(claims: Pick<JwtPayload, "app_metadata" | "user_metadata">): string | null {
  const app = claims.app_metadata as { provider?: unknown; providers?: unknown } | undefined;
  const viaWeb3 = app?.provider === "web3" || (Array.isArray(app?.providers) && app.providers.includes("web3"));
  if (!viaWeb3) return null;
  const data = claims.user_metadata as { sub?: unknown; custom_claims?: { address?: unknown } } | undefined;
  const address =
    data?.custom_claims?.address ??
    (typeof data?.sub === "string" && data.sub.startsWith("web3:") ? data.sub.split(":").at(-1) : undefined);
  return typeof address === "string" && /^0x[0-9a-fA-F]{40}$/.test(address) ? address : null;
}

/** 0x1234…abcd */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

import { z } from "./zod.ts";

// The link-wallet function's request body, shared by the Wallets section (which builds it) and
// the function (which validates it again). Deno imports this file by relative path; its
// supabase/functions/deno.json maps "zod" to the same npm package.

export const linkWalletMessages = {
  malformed: 'Send {"action":"nonce"} to start, then {"message","signature"} with the signed message.',
  notSignedIn: "Sign in to link a wallet.",
  secondFactorRequired: "Enter the code from your authenticator app first, then link the wallet.",
  unreadable: "That isn't a sign-in message we can read — start linking again.",
  otherDomain: "This message was signed for another site, not this one — start linking again from this page.",
  otherUri: "This message points outside this site — start linking again from this page.",
  expired: "This signing request has expired — start linking again.",
  notYetValid: "This message isn't valid yet — check your device's clock and start linking again.",
  unknownNonce: "This signing request isn't one we issued — start linking again.",
  otherUsersNonce: "This signing request was issued to another account — start linking again from your own account.",
  usedNonce: "This signing request was already used — start linking again.",
  badSignature: "The signature doesn't match the wallet in the message — sign again with that wallet.",
  alreadyLinkedElsewhere: "That wallet is already linked to another account",
  limit: "You can link up to 5 wallets. Unlink one to add another.",
} as const;

export const maxWalletsPerAccount = 5;

const hex = /^0x[0-9a-fA-F]+$/;

export const linkWalletBodySchema = z.union([
  z.object({ action: z.literal("nonce") }).strict(),
  z.object({ action: z.literal("refresh") }).strict(),
  z
    .object({
      action: z.literal("link").optional(),
      message: z.string().min(1).max(2000),
      signature: z.string().max(20_000).regex(hex),
    })
    .strict(),
]);

export type LinkWalletBody = z.infer<typeof linkWalletBodySchema>;

/** A linked wallet as the function returns it. */
export interface LinkedWallet {
  address: string;
  ens_name: string | null;
  ens_avatar: string | null;
  verified_at: string;
}

export type LinkWalletResponse =
  | { nonce: string; expires_at: string }
  | { wallet: LinkedWallet; already_linked: boolean }
  | { refreshed: number }
  | { error: string; code: string };

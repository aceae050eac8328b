// Linking wallets in tests: signed-in users, the link-wallet function, EIP-4361 messages signed
// by viem private-key accounts (as a browser wallet would sign them).
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { buildSiwe, linkStatement } from "../../lib/wallets/siwe";
import { anonClient, serviceClient } from "./stack";

export const admin = serviceClient();
export const site = { domain: "localhost:3000", uri: "http://localhost:3000/account" };

export async function signedInUser(label: string) {
  const email = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@wallets.cuepoint.test`;
  const password = "correct-horse-battery";
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`);
  const client = anonClient();
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  return { id: data.user.id, email, client };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; error?: string; nonce?: string };
}

/** Calls link-wallet and returns its status and JSON body, whether it succeeded or not. */
export async function callLinkWallet(client: SupabaseClient, body: unknown): Promise<Answer> {
  const { data, error, response } = await client.functions.invoke("link-wallet", { body: body as Record<string, unknown> });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: await res.json() };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data };
}

export async function issueNonce(client: SupabaseClient): Promise<string> {
  const answer = await callLinkWallet(client, { action: "nonce" });
  if (answer.status !== 200 || !answer.body.nonce) throw new Error(`no nonce: ${JSON.stringify(answer)}`);
  return answer.body.nonce;
}

export interface MessageOptions {
  address?: string;
  domain?: string;
  uri?: string;
  chainId?: number;
  issuedAt?: Date;
  expirationTime?: Date;
}

export function linkMessage(nonce: string, address: string, options: MessageOptions = {}): string {
  const issuedAt = options.issuedAt ?? new Date();
  return buildSiwe({
    domain: options.domain ?? site.domain,
    address: options.address ?? address,
    uri: options.uri ?? site.uri,
    chainId: options.chainId ?? 31337,
    nonce,
    issuedAt,
    expirationTime: options.expirationTime ?? new Date(issuedAt.getTime() + 10 * 60 * 1000),
    statement: linkStatement,
  });
}

export function randomWallet(privateKey: Hex = generatePrivateKey()) {
  return privateKeyToAccount(privateKey);
}

/** Nonce, message, signature and the call: what the Wallets section does, in one step. */
export async function linkWallet(
  client: SupabaseClient,
  signer: ReturnType<typeof randomWallet>,
  options: MessageOptions = {},
): Promise<Answer> {
  const nonce = await issueNonce(client);
  const message = linkMessage(nonce, signer.address, options);
  return callLinkWallet(client, { message, signature: await signer.signMessage({ message }) });
}

export async function walletsOf(userId: string) {
  const { data, error } = await admin.from("wallets").select("*").eq("user_id", userId).order("verified_at");
  if (error) throw error;
  return data as { address: string; user_id: string; ens_name: string | null; ens_avatar: string | null; ens_checked_at: string | null }[];
}

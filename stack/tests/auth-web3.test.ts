// Sign in with Ethereum (EIP-4361) through supabase-js's signInWithWeb3, signed by a local
// private-key account, and every way a message or signature can be wrong.
import type { EthereumWallet } from "@supabase/supabase-js";
import { type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, test } from "vitest";
import { authFetch, client, sql } from "./auth-helpers.ts";

function walletFor(account: ReturnType<typeof privateKeyToAccount>, chainId = 1): EthereumWallet {
  const wallet = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [account.address];
      if (method === "eth_chainId") return `0x${chainId.toString(16)}`;
      if (method === "personal_sign") {
        const data = String(params?.[0]);
        return await account.signMessage({ message: isHex(data) ? { raw: data as Hex } : data });
      }
      throw new Error(`unsupported ${method}`);
    },
  };
  return wallet as unknown as EthereumWallet;
}

interface MessageFields {
  domain?: string;
  uri?: string;
  chainId?: number | string;
  nonce?: string;
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
  statement?: string;
}

/** The message auth-js builds (same layout), with any field overridden. */
function siweMessage(address: string, fields: MessageFields = {}): string {
  const statement = fields.statement ?? "Sign in to Cuepoint with this wallet.";
  let text = `${fields.domain ?? "localhost:3000"} wants you to sign in with your Ethereum account:\n${address}\n\n${statement}\n\n`;
  text += `URI: ${fields.uri ?? "http://localhost:3000/login"}\nVersion: 1\nChain ID: ${fields.chainId ?? 1}`;
  if (fields.nonce !== undefined) text += `\nNonce: ${fields.nonce}`;
  text += `\nIssued At: ${(fields.issuedAt ?? new Date()).toISOString()}`;
  if (fields.expirationTime) text += `\nExpiration Time: ${fields.expirationTime.toISOString()}`;
  if (fields.notBefore) text += `\nNot Before: ${fields.notBefore.toISOString()}`;
  return text;
}

async function web3(body: Record<string, unknown>) {
  return await authFetch("/token?grant_type=web3", {
    method: "POST",
    apiVersion: true,
    body: JSON.stringify({ chain: "ethereum", ...body }),
  });
}

const invalidGrant = (description: string) => ({ status: 400, body: { error: "invalid_grant", error_description: description } });

describe("web3 sign-in (Ethereum)", () => {
  test("signInWithWeb3 creates the user with a web3 identity on first use, then signs the same user in", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const supabase = client();
    const first = await supabase.auth.signInWithWeb3({
      chain: "ethereum",
      wallet: walletFor(account),
      statement: "Sign in to Cuepoint with this wallet.",
      options: { url: "http://localhost:3000/login" },
    });
    expect(first.error).toBeNull();
    const user = first.data.user!;
    expect(user.email).toBe("");
    expect(user.app_metadata).toEqual({ provider: "web3", providers: ["web3"] });
    expect(user.identities).toHaveLength(1);
    expect(user.identities![0]).toMatchObject({ provider: "web3", id: `web3:ethereum:${account.address}` });
    expect(user.user_metadata).toMatchObject({
      sub: `web3:ethereum:${account.address}`,
      custom_claims: {
        address: account.address,
        chain: "ethereum",
        network: "1",
        domain: "localhost:3000",
        statement: "Sign in to Cuepoint with this wallet.",
      },
    });
    const claims = JSON.parse(Buffer.from(first.data.session!.access_token.split(".")[1], "base64url").toString()) as {
      amr: { method: string }[];
    };
    expect(claims.amr[0].method).toBe("web3");

    const [profile] = await sql<{ username: string }>("select username from public.profiles where id = $1", [user.id]);
    expect(profile.username).toMatch(new RegExp(`^eth_${account.address.slice(2, 8).toLowerCase()}`));

    const again = await client().auth.signInWithWeb3({
      chain: "ethereum",
      wallet: walletFor(account),
      statement: "Sign in to Cuepoint with this wallet.",
      options: { url: "http://localhost:3000/login" },
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(user.id);
  });

  test("a replayed message is refused", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siweMessage(account.address, { nonce: "abcdef123456" });
    const signature = await account.signMessage({ message });
    expect((await web3({ message, signature })).status).toBe(200);
    expect(await web3({ message, signature })).toMatchObject(invalidGrant("Signed Ethereum message has already been used"));
  });

  test("a tampered signature or message does not match the address", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siweMessage(account.address);
    const signature = await account.signMessage({ message });
    const flipped = signature.slice(0, 10) + (signature[10] === "a" ? "b" : "a") + signature.slice(11);
    expect(await web3({ message, signature: flipped })).toMatchObject(invalidGrant("Signature does not match address in message"));
    const otherAccount = privateKeyToAccount(generatePrivateKey());
    const stolen = siweMessage(otherAccount.address);
    expect(await web3({ message: stolen, signature: await account.signMessage({ message: stolen }) })).toMatchObject(
      invalidGrant("Signature does not match address in message"),
    );
  });

  test("domain and URI must be allowed by site_url and the redirect list", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const sign = async (fields: MessageFields) => {
      const message = siweMessage(account.address, fields);
      return await web3({ message, signature: await account.signMessage({ message }) });
    };
    expect(await sign({ domain: "evil.example", uri: "https://evil.example/login" })).toMatchObject(
      invalidGrant("Signed Ethereum message is using URI which is not allowed on this server, message was signed for another app"),
    );
    expect(await sign({ domain: "cuepoint.example", uri: "http://cuepoint.example/login" })).toMatchObject(
      invalidGrant("Signed Ethereum message is using URI which does not use HTTPS"),
    );
    expect((await sign({ domain: "localhost:3100", uri: "http://localhost:3100/login" })).status).toBe(200);
  });

  test("issued-at window, expiration and not-before", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const sign = async (fields: MessageFields) => {
      const message = siweMessage(account.address, fields);
      return await web3({ message, signature: await account.signMessage({ message }) });
    };
    const minutes = (n: number) => new Date(Date.now() + n * 60_000);
    expect(await sign({ issuedAt: minutes(-11) })).toMatchObject(invalidGrant("Ethereum message was issued too long ago"));
    expect(await sign({ issuedAt: minutes(11) })).toMatchObject(invalidGrant("Ethereum message was issued too far in the future"));
    expect(await sign({ expirationTime: minutes(-1) })).toMatchObject(invalidGrant("Signed Ethereum message is expired"));
    expect(await sign({ notBefore: minutes(5) })).toMatchObject(invalidGrant("Signed Ethereum message becomes valid in the future"));
  });

  test("malformed input: validation_failed; other chains: their own codes", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: "x" });
    const failed = (message: string) => ({ status: 400, body: { code: "validation_failed", message } });
    expect(await web3({ message: "too short", signature })).toMatchObject(failed("message is too short"));
    expect(await web3({ message: siweMessage(account.address), signature: "0x1234" })).toMatchObject(
      failed("signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string"),
    );
    expect(await web3({ message: siweMessage(account.address, { nonce: "short" }), signature })).toMatchObject(
      failed("siwe: Nonce must be at least 8 alphanumeric characters"),
    );
    expect(await web3({ message: siweMessage(account.address, { chainId: "zero" }), signature })).toMatchObject(
      failed("siwe: Chain ID must be a positive integer (EIP-155)"),
    );
    expect(await web3({ message: siweMessage(account.address).replace(account.address, "0xnotanaddress"), signature })).toMatchObject(
      failed("siwe: message does not contain a valid Ethereum address"),
    );
    expect(await web3({ message: "x".repeat(21 * 1024), signature })).toMatchObject(failed("message must not exceed 20KB"));
    expect(await web3({ chain: "solana", message: siweMessage(account.address), signature })).toMatchObject({
      status: 422,
      body: { code: "web3_provider_disabled" },
    });
    expect(await web3({ chain: "bitcoin", message: siweMessage(account.address), signature })).toMatchObject({
      status: 400,
      body: { code: "web3_unsupported_chain", message: "Unsupported chain" },
    });
  });
});

// Renaming and removing passkeys as /account's actions do (lib/passkeys/manage.ts), through Auth and
// the database as each person: never another person's passkey, and never an account's last way in
// (no email address to sign in with — a wallet's account — and no other passkey). The passkeys are written straight into Auth's table — renaming and
// removing never touch the key, and the browser ceremonies are e2e/passkeys.spec.ts' to drive.
import { randomBytes } from "node:crypto";
import type { EthereumWallet } from "@supabase/supabase-js";
import { type Hex, isHex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { removePasskey, renamePasskey } from "../../lib/passkeys/manage";
import { accountPasskeys } from "../../lib/passkeys/queries";
import { passkeyMessages } from "../../lib/passkeys/rules";
import type { ServerClient } from "../../lib/server-action";
import { deleteUsers, signedInUser, type TestUser } from "../helpers/post-fixtures";
import { adminQuery, anonClient, serviceClient } from "../helpers/stack";
import { randomWallet } from "../helpers/wallets";

const asServer = (user: TestUser) => user.client as unknown as ServerClient;

/** An account made by signing in with a new wallet: no email address, no password. */
async function walletUser(): Promise<TestUser> {
  const account = randomWallet();
  const wallet = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [account.address];
      if (method === "eth_chainId") return "0x1";
      if (method === "personal_sign") {
        const data = String(params?.[0]);
        return account.signMessage({ message: isHex(data) ? { raw: data as Hex } : data });
      }
      throw new Error(`unsupported ${method}`);
    },
  } as unknown as EthereumWallet;
  const client = anonClient();
  const { data, error } = await client.auth.signInWithWeb3({
    chain: "ethereum",
    wallet,
    statement: "Sign in to Cuepoint with this wallet.",
    options: { url: "http://localhost:3000/login" },
  });
  if (error || !data.session) throw error ?? new Error("no session");
  return { id: data.user!.id, email: "", client, accessToken: data.session.access_token };
}

async function addPasskey(userId: string, name: string): Promise<string> {
  const [row] = await adminQuery<{ id: string }>(
    "insert into auth.webauthn_credentials (user_id, credential_id, public_key, friendly_name) values ($1, $2, $3, $4) returning id",
    [userId, randomBytes(16), randomBytes(77), name],
  );
  return row.id;
}

const passkeysOf = async (userId: string) =>
  await adminQuery<{ id: string; friendly_name: string }>(
    "select id, friendly_name from auth.webauthn_credentials where user_id = $1 order by created_at",
    [userId],
  );

let withPassword: TestUser, passwordless: TestUser;

beforeAll(async () => {
  [withPassword, passwordless] = await Promise.all([signedInUser("passkeys-pw"), walletUser()]);
});

afterAll(async () => {
  await deleteUsers(withPassword);
  if (passwordless) await serviceClient().auth.admin.deleteUser(passwordless.id);
});

describe("the last way in", () => {
  test("an account with an email address may remove its only passkey", async () => {
    const only = await addPasskey(withPassword.id, "Laptop");
    expect(await accountPasskeys(asServer(withPassword))).toMatchObject([{ id: only, name: "Laptop", lastUsedAt: null }]);
    expect(await removePasskey(asServer(withPassword), only)).toEqual({ ok: true, data: null });
    expect(await passkeysOf(withPassword.id)).toEqual([]);
  });

  test("a wallet's account (no email address) removes one of two passkeys, then keeps the last", async () => {
    const first = await addPasskey(passwordless.id, "Phone");
    const second = await addPasskey(passwordless.id, "Laptop");
    expect(await accountPasskeys(asServer(passwordless))).toHaveLength(2);
    expect(await removePasskey(asServer(passwordless), first)).toEqual({ ok: true, data: null });
    expect(await removePasskey(asServer(passwordless), second)).toEqual({ ok: false, error: passkeyMessages.lastWayIn });
    expect((await passkeysOf(passwordless.id)).map((row) => row.id)).toEqual([second]);
  });
});

describe("only one's own", () => {
  test("another person's passkey is not found, to rename or to remove, and stays as it was", async () => {
    const theirs = await addPasskey(passwordless.id, "Their key");
    expect(await removePasskey(asServer(withPassword), theirs)).toEqual({ ok: false, error: passkeyMessages.notFound });
    expect(await renamePasskey(asServer(withPassword), theirs, "Mine now")).toEqual({ ok: false, error: passkeyMessages.notFound });
    expect((await passkeysOf(passwordless.id)).find((row) => row.id === theirs)?.friendly_name).toBe("Their key");
  });

  test("renaming one's own: trimmed; an empty name is refused in words", async () => {
    const mine = await addPasskey(withPassword.id, "Passkey");
    expect(await renamePasskey(asServer(withPassword), mine, "   ")).toEqual({ ok: false, error: passkeyMessages.nameRequired });
    expect(await renamePasskey(asServer(withPassword), mine, "  Work   laptop ")).toEqual({ ok: true, data: { name: "Work laptop" } });
    expect((await passkeysOf(withPassword.id)).find((row) => row.id === mine)?.friendly_name).toBe("Work laptop");
  });
});

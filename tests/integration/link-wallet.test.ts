// The link-wallet function on the running stack, against the stack's local chain (no mocked RPC,
// no mocked resolver), called with supabase-js as each kind of caller. Every bad input gets a
// clear error and leaves nothing recorded.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { contracts, devAccounts, avatarUrl, seededWallets, smartAccountOwner } from "../../chain/deployment";
import { linkWalletMessages } from "../../lib/validation/wallet";
import { anonClient, config } from "../helpers/stack";
import { clearOfStepEnd, totp } from "../helpers/totp";
import { admin, callLinkWallet, issueNonce, linkMessage, linkWallet, randomWallet, signedInUser, walletsOf } from "../helpers/wallets";

// the first call boots the function (and on a fresh clone fetches its packages)
vi.setConfig({ testTimeout: 120_000 });

let owner: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  [owner, other] = await Promise.all([signedInUser("owner"), signedInUser("other")]);
}, 120_000);

afterAll(async () => {
  await admin.auth.admin.deleteUser(owner.id);
  await admin.auth.admin.deleteUser(other.id);
});

describe("linking", () => {
  test("a nonce, a signed message and the wallet is linked: lowercase address, verified now, readable by its owner only", async () => {
    const wallet = randomWallet();
    const answer = await linkWallet(owner.client, wallet);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      already_linked: false,
      wallet: { address: wallet.address.toLowerCase(), ens_name: null, ens_avatar: null },
    });
    const own = await owner.client
      .from("wallets")
      .select("address, verified_at, ens_checked_at")
      .eq("address", wallet.address.toLowerCase());
    expect(own.data).toHaveLength(1);
    expect(Date.now() - new Date(own.data![0].verified_at).getTime()).toBeLessThan(60_000);
    expect(own.data![0].ens_checked_at).not.toBeNull();
    const theirs = await other.client.from("wallets").select("address").eq("address", wallet.address.toLowerCase());
    expect(theirs.data).toEqual([]);
    // the owner unlinks it through RLS, no function needed
    const removed = await owner.client.from("wallets").delete().eq("address", wallet.address.toLowerCase()).select("address");
    expect(removed.data).toHaveLength(1);
    expect(await walletsOf(owner.id)).toEqual([]);
  });

  test("a seeded wallet gets its ENS name and avatar from the local chain, and its profile shows them", async () => {
    const ada = seededWallets.ada;
    await admin.from("wallets").delete().eq("address", ada.address.toLowerCase());
    const answer = await linkWallet(owner.client, randomWallet(ada.privateKey));
    expect(answer.status).toBe(201);
    expect(answer.body.wallet).toMatchObject({
      address: ada.address.toLowerCase(),
      ens_name: "ada.eth",
      ens_avatar: avatarUrl("ada.eth", config.apiPort),
    });
    const { data } = await anonClient().rpc("profile_wallets", { profile_id: owner.id });
    expect(data).toEqual([{ address: ada.address.toLowerCase(), ens_name: "ada.eth", ens_avatar: avatarUrl("ada.eth", config.apiPort) }]);
    await admin.from("wallets").delete().eq("address", ada.address.toLowerCase());
  });

  test("a wallet without a primary name is linked with no name, so the app shows its address", async () => {
    const answer = await linkWallet(other.client, randomWallet(devAccounts[3].privateKey));
    expect(answer.status).toBe(201);
    expect(answer.body.wallet).toMatchObject({ ens_name: null, ens_avatar: null });
    await admin.from("wallets").delete().eq("address", devAccounts[3].address.toLowerCase());
  });

  test("an EIP-1271 smart account's signature (its owner key signing) is verified on the message's chain", async () => {
    await admin.from("wallets").delete().eq("address", contracts.smartAccount.toLowerCase());
    const nonce = await issueNonce(owner.client);
    const message = linkMessage(nonce, contracts.smartAccount);
    const signature = await randomWallet(smartAccountOwner.privateKey).signMessage({ message });
    const answer = await callLinkWallet(owner.client, { message, signature });
    expect(answer.status).toBe(201);
    expect(answer.body.wallet).toMatchObject({ address: contracts.smartAccount.toLowerCase() });
    await admin.from("wallets").delete().eq("address", contracts.smartAccount.toLowerCase());
  });

  test("linking a wallet the caller already has answers ok without a second row", async () => {
    const wallet = randomWallet();
    expect((await linkWallet(owner.client, wallet)).status).toBe(201);
    const again = await linkWallet(owner.client, wallet);
    expect(again.status).toBe(200);
    expect(again.body.already_linked).toBe(true);
    expect((await walletsOf(owner.id)).filter((row) => row.address === wallet.address.toLowerCase())).toHaveLength(1);
    await admin.from("wallets").delete().eq("address", wallet.address.toLowerCase());
  });
});

describe("bad input: a clear error and nothing recorded", () => {
  async function expectRefused(
    answer: Awaited<ReturnType<typeof callLinkWallet>>,
    status: number,
    code: string,
    message?: string | RegExp,
  ) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
    if (typeof message === "string") expect(answer.body.error).toBe(message);
    else if (message) expect(answer.body.error).toMatch(message);
    expect(await walletsOf(owner.id)).toEqual([]);
  }

  test("a replayed nonce", async () => {
    const wallet = randomWallet();
    const nonce = await issueNonce(owner.client);
    const message = linkMessage(nonce, wallet.address);
    const signature = await wallet.signMessage({ message });
    expect((await callLinkWallet(owner.client, { message, signature })).status).toBe(201);
    await admin.from("wallets").delete().eq("address", wallet.address.toLowerCase());
    await expectRefused(await callLinkWallet(owner.client, { message, signature }), 409, "used_nonce", linkWalletMessages.usedNonce);
  });

  test("an expired message: past its expiration time, issued over 10 minutes ago, or a nonce past its 10 minutes", async () => {
    const wallet = randomWallet();
    const past = new Date(Date.now() - 60_000);
    await expectRefused(
      await linkWallet(owner.client, wallet, { issuedAt: new Date(Date.now() - 120_000), expirationTime: past }),
      400,
      "expired",
      linkWalletMessages.expired,
    );
    await expectRefused(
      await linkWallet(owner.client, wallet, {
        issuedAt: new Date(Date.now() - 11 * 60_000),
        expirationTime: new Date(Date.now() + 60_000),
      }),
      400,
      "expired",
    );
    const nonce = await issueNonce(owner.client);
    await admin
      .from("wallet_nonces")
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq("nonce", nonce);
    const message = linkMessage(nonce, wallet.address);
    await expectRefused(await callLinkWallet(owner.client, { message, signature: await wallet.signMessage({ message }) }), 400, "expired");
  });

  test("a message for another domain or URI", async () => {
    const wallet = randomWallet();
    await expectRefused(
      await linkWallet(owner.client, wallet, { domain: "evil.example", uri: "https://evil.example/account" }),
      400,
      "other_domain",
      linkWalletMessages.otherDomain,
    );
    await expectRefused(
      await linkWallet(owner.client, wallet, { uri: "https://evil.example/account" }),
      400,
      "other_uri",
      linkWalletMessages.otherUri,
    );
    await expectRefused(await linkWallet(owner.client, wallet, { uri: "not a uri" }), 400, "other_uri");
  });

  test("an unsupported chain", async () => {
    await expectRefused(
      await linkWallet(owner.client, randomWallet(), { chainId: 999 }),
      400,
      "unsupported_chain",
      "Chain 999 isn't supported. Switch your wallet to Ethereum, Base, Optimism, Arbitrum, Polygon or Local chain and try again.",
    );
  });

  test("a signature by a different key", async () => {
    const claimed = randomWallet();
    const signer = randomWallet();
    const nonce = await issueNonce(owner.client);
    const message = linkMessage(nonce, claimed.address);
    await expectRefused(
      await callLinkWallet(owner.client, { message, signature: await signer.signMessage({ message }) }),
      400,
      "bad_signature",
      linkWalletMessages.badSignature,
    );
  });

  test("a tampered message (signed, then changed)", async () => {
    const wallet = randomWallet();
    const nonce = await issueNonce(owner.client);
    const message = linkMessage(nonce, wallet.address);
    const signature = await wallet.signMessage({ message });
    const tampered = message.replace("Link this wallet", "Link that wallet");
    await expectRefused(await callLinkWallet(owner.client, { message: tampered, signature }), 400, "bad_signature");
    // the nonce was not spent by the failed attempt: the genuine message still links
    expect((await callLinkWallet(owner.client, { message, signature })).status).toBe(201);
    await admin.from("wallets").delete().eq("address", wallet.address.toLowerCase());
  });

  test("an address already linked to another account", async () => {
    const wallet = randomWallet();
    expect((await linkWallet(other.client, wallet)).status).toBe(201);
    await expectRefused(await linkWallet(owner.client, wallet), 409, "already_linked", "That wallet is already linked to another account");
    expect((await walletsOf(other.id)).map((row) => row.address)).toContain(wallet.address.toLowerCase());
    await admin.from("wallets").delete().eq("address", wallet.address.toLowerCase());
  });

  test("a sixth wallet: refused before signing, and refused when signed with a nonce from before", async () => {
    const user = await signedInUser("full");
    try {
      const early = await issueNonce(user.client);
      const five = Array.from({ length: 5 }, () => randomWallet());
      for (const wallet of five) expect((await linkWallet(user.client, wallet)).status).toBe(201);
      const nonce = await callLinkWallet(user.client, { action: "nonce" });
      expect(nonce).toMatchObject({ status: 422, body: { code: "limit", error: linkWalletMessages.limit } });
      const sixth = randomWallet();
      const message = linkMessage(early, sixth.address);
      const answer = await callLinkWallet(user.client, { message, signature: await sixth.signMessage({ message }) });
      expect(answer).toMatchObject({ status: 422, body: { code: "limit", error: linkWalletMessages.limit } });
      expect((await walletsOf(user.id)).map((row) => row.address).sort()).toEqual(five.map((w) => w.address.toLowerCase()).sort());
    } finally {
      await admin.auth.admin.deleteUser(user.id);
    }
  });

  test("a nonce issued to another user", async () => {
    const wallet = randomWallet();
    const nonce = await issueNonce(other.client);
    const message = linkMessage(nonce, wallet.address);
    await expectRefused(
      await callLinkWallet(owner.client, { message, signature: await wallet.signMessage({ message }) }),
      403,
      "other_users_nonce",
      linkWalletMessages.otherUsersNonce,
    );
    await expectRefused(
      await callLinkWallet(owner.client, {
        message: linkMessage("NeverIssued0123456789", wallet.address),
        signature: await wallet.signMessage({ message }),
      }),
      400,
      "unknown_nonce",
    );
  });

  test("a malformed body", async () => {
    const wallet = randomWallet();
    for (const body of [
      {},
      { action: "steal" },
      { message: 42, signature: "0x00" },
      { message: "hello", signature: "not hex" },
      { action: "nonce", extra: true },
      [],
    ]) {
      await expectRefused(await callLinkWallet(owner.client, body), 400, "malformed", linkWalletMessages.malformed);
    }
    const res = await fetch(`http://127.0.0.1:${config.apiPort}/functions/v1/link-wallet`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${(await owner.client.auth.getSession()).data.session!.access_token}`,
        "Content-Type": "application/json",
      },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("malformed");
    // a message that is not EIP-4361 at all
    await expectRefused(
      await callLinkWallet(owner.client, { message: "please link me", signature: await wallet.signMessage({ message: "please link me" }) }),
      400,
      "unreadable_message",
    );
  });

  test("asking for nonces again and again keeps at most 10 open per user; the oldest stop working", async () => {
    const user = await signedInUser("nonces");
    try {
      const nonces: string[] = [];
      for (let i = 0; i < 12; i++) nonces.push(await issueNonce(user.client));
      const { data } = await admin.from("wallet_nonces").select("nonce").eq("user_id", user.id);
      expect(data!.map((row) => row.nonce).sort()).toEqual(nonces.slice(2).sort());
      const wallet = randomWallet();
      const message = linkMessage(nonces[0], wallet.address);
      expect(await callLinkWallet(user.client, { message, signature: await wallet.signMessage({ message }) })).toMatchObject({
        status: 400,
        body: { code: "unknown_nonce" },
      });
    } finally {
      await admin.auth.admin.deleteUser(user.id);
    }
  });

  test("no session: the anon key alone cannot ask for a nonce or link", async () => {
    const answer = await callLinkWallet(anonClient(), { action: "nonce" });
    expect(answer.status).toBe(401);
  });

  test("a chain whose RPC cannot be reached: the wallet is not linked and the error says so", async () => {
    // Base's RPC is not configured here, so thirdweb's own is used, which this machine cannot reach
    // (the offline case; online it refuses the local client ID, which is reported the same way).
    const claimed = randomWallet();
    const signer = randomWallet();
    const nonce = await issueNonce(owner.client);
    const message = linkMessage(nonce, claimed.address, { chainId: 8453 });
    await expectRefused(
      await callLinkWallet(owner.client, { message, signature: await signer.signMessage({ message }) }),
      503,
      "chain_unreachable",
      "We couldn't reach Base to check this wallet's signature, so the wallet was not linked. Try again in a minute.",
    );
  });
});

describe("two-factor accounts", () => {
  /** The current RFC 6238 code of a base32 secret, one step ahead so it differs from the one just used. */
  test("a user with a verified authenticator links a wallet only from an aal2 session", async () => {
    const person = await signedInUser("mfa-wallet");
    const { data: factor } = await person.client.auth.mfa.enroll({ factorType: "totp" });
    await clearOfStepEnd();
    expect(
      (await person.client.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret, -1) })).error,
    ).toBeNull();
    const aal1 = anonClient();
    await aal1.auth.signInWithPassword({ email: person.email, password: "correct-horse-battery" });

    const refused = await callLinkWallet(aal1, { action: "nonce" });
    expect(refused).toMatchObject({ status: 403, body: { code: "aal2_required", error: linkWalletMessages.secondFactorRequired } });
    const wallet = randomWallet();
    expect((await linkWallet(person.client, wallet)).status).toBe(201);
    expect((await walletsOf(person.id)).map((row) => row.address)).toEqual([wallet.address.toLowerCase()]);

    // Postgres agrees for unlinking: the aal1 session's delete reaches no row.
    const unlink = await aal1.from("wallets").delete().eq("address", wallet.address.toLowerCase()).select("address");
    expect(unlink.data).toEqual([]);
    expect(await walletsOf(person.id)).toHaveLength(1);
    await admin.auth.admin.deleteUser(person.id);
  });
});

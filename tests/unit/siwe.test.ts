import { getAddress } from "viem";
import { describe, expect, test } from "vitest";
import { checksumAddress, shortChecksummedAddress } from "../../lib/chain/address";
import { chainConfig } from "../../lib/chain/chains";
import { buildSiwe, checkSiwe, linkStatement, parseSiwe } from "../../lib/wallets/siwe";

const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const now = new Date("2026-11-23T12:00:00.000Z");
const chains = chainConfig((name) => ({ CHAIN_RPC_31337: "http://127.0.0.1:8545" })[name]);
const message = (overrides: Partial<Parameters<typeof buildSiwe>[0]> = {}) =>
  buildSiwe({
    domain: "cuepoint.example",
    address,
    uri: "https://cuepoint.example/account",
    chainId: 8453,
    nonce: "AbCdEf0123456789xyzXYZ00",
    issuedAt: now,
    expirationTime: new Date(now.getTime() + 600_000),
    statement: linkStatement,
    ...overrides,
  });
const check = (text: string, siteUrl = "https://cuepoint.example", at = now) => checkSiwe(parseSiwe(text)!, { siteUrl, now: at, chains });

describe("EIP-4361 messages", () => {
  test("the message the app builds reads back field for field", () => {
    expect(parseSiwe(message())).toEqual({
      domain: "cuepoint.example",
      address,
      statement: linkStatement,
      uri: "https://cuepoint.example/account",
      version: "1",
      chainId: 8453,
      nonce: "AbCdEf0123456789xyzXYZ00",
      issuedAt: now,
      expirationTime: new Date(now.getTime() + 600_000),
      notBefore: undefined,
    });
    expect(check(message())).toEqual({ ok: true });
  });

  test("what is not a well-formed message with a nonce is unreadable", () => {
    expect(parseSiwe("hello")).toBeNull();
    expect(parseSiwe(message().replace(/Nonce: .*/, "Nonce: short"))).toBeNull();
    expect(parseSiwe(message().replace(/\nNonce: .*/, ""))).toBeNull();
    expect(parseSiwe(message().replace("Version: 1", "Version: 2"))).toBeNull();
    expect(parseSiwe(message().replace(/Issued At: .*/, "Issued At: yesterday"))).toBeNull();
    expect(parseSiwe(message() + "\nChain ID: 1")).toBeNull();
  });

  test("the domain must be the site's host and the URI on the site", () => {
    expect(check(message({ domain: "evil.example", uri: "https://evil.example/account" }))).toMatchObject({
      ok: false,
      code: "other_domain",
    });
    expect(check(message({ uri: "https://evil.example/account" }))).toMatchObject({ ok: false, code: "other_uri" });
    expect(check(message({ uri: "http://cuepoint.example/account" }))).toMatchObject({ ok: false, code: "other_uri" });
  });

  test("a development site on localhost accepts any local port, as Supabase Auth does, and nothing else", () => {
    expect(check(message({ domain: "localhost:3206", uri: "http://localhost:3206/account" }), "http://localhost:3000")).toEqual({
      ok: true,
    });
    expect(check(message({ domain: "evil.example", uri: "http://evil.example/account" }), "http://localhost:3000")).toMatchObject({
      ok: false,
      code: "other_domain",
    });
  });

  test("unsupported chains name the supported ones", () => {
    expect(check(message({ chainId: 56 }))).toEqual({
      ok: false,
      code: "unsupported_chain",
      error: "Chain 56 isn't supported. Switch your wallet to Ethereum, Base, Optimism, Arbitrum, Polygon or Local chain and try again.",
    });
  });

  test("times: expired, issued over 10 minutes ago, or from the future beyond a minute of clock difference", () => {
    expect(check(message(), undefined, new Date(now.getTime() + 600_000))).toMatchObject({ ok: false, code: "expired" });
    expect(
      check(message({ expirationTime: new Date(now.getTime() + 3_600_000) }), undefined, new Date(now.getTime() + 601_000)),
    ).toMatchObject({ ok: false, code: "expired" });
    expect(check(message({ issuedAt: new Date(now.getTime() + 30_000) }))).toEqual({ ok: true });
    expect(check(message({ issuedAt: new Date(now.getTime() + 120_000) }))).toMatchObject({ ok: false, code: "not_yet_valid" });
  });
});

describe("addresses", () => {
  test("checksummed as EIP-55 says (the same as viem), shortened from the checksummed form", () => {
    for (const candidate of [
      address.toLowerCase(),
      "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      "0x0000000000000000000000000000000000000000",
    ]) {
      expect(checksumAddress(candidate)).toBe(getAddress(candidate));
    }
    expect(shortChecksummedAddress(address.toLowerCase())).toBe("0x7099…79C8");
  });
});

import type { UserIdentity } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { shortAddress, web3Address } from "../../lib/auth/web3-identity";

const address = "0x48f2dA0c1bC4e5A6b7C8d9E0f1a2B3c4D5e6F7a8";
const identity = (provider: string, identity_data: Record<string, unknown>) => ({ provider, identity_data }) as unknown as UserIdentity;

describe("web3Address", () => {
  test("reads the address from a web3 identity's custom_claims", () => {
    expect(web3Address({ identities: [identity("web3", { sub: `web3:ethereum:${address}`, custom_claims: { address } })] })).toBe(address);
  });

  test("falls back to the identity's subject", () => {
    expect(web3Address({ identities: [identity("web3", { sub: `web3:ethereum:${address}` })] })).toBe(address);
  });

  test("is null for email users, missing identities and malformed addresses", () => {
    expect(web3Address({ identities: [identity("email", { sub: "x", email: "a@b.c" })] })).toBeNull();
    expect(web3Address({ identities: undefined })).toBeNull();
    expect(web3Address({ identities: [identity("web3", { sub: "web3:ethereum:0x123", custom_claims: { address: "not-an-address" } })] })).toBeNull();
  });
});

test("shortAddress keeps the first 6 and last 4 characters", () => {
  expect(shortAddress(address)).toBe("0x48f2…F7a8");
});

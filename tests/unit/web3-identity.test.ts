import { describe, expect, test } from "vitest";
import { shortAddress, web3AddressFromClaims } from "../../lib/auth/web3-identity";

const address = "0x48f2dA0c1bC4e5A6b7C8d9E0f1a2B3c4D5e6F7a8";
const web3 = { provider: "web3", providers: ["web3"] };

describe("web3AddressFromClaims", () => {
  test("reads the address from the custom_claims GoTrue copies into user_metadata", () => {
    expect(
      web3AddressFromClaims({ app_metadata: web3, user_metadata: { sub: `web3:ethereum:${address}`, custom_claims: { address } } }),
    ).toBe(address);
  });

  test("falls back to the identity's subject", () => {
    expect(web3AddressFromClaims({ app_metadata: web3, user_metadata: { sub: `web3:ethereum:${address}` } })).toBe(address);
  });

  test("is null for email users (even with an address typed into their own metadata) and for malformed addresses", () => {
    expect(
      web3AddressFromClaims({ app_metadata: { provider: "email", providers: ["email"] }, user_metadata: { custom_claims: { address } } }),
    ).toBeNull();
    expect(web3AddressFromClaims({ app_metadata: {}, user_metadata: {} })).toBeNull();
    expect(
      web3AddressFromClaims({
        app_metadata: web3,
        user_metadata: { sub: "web3:ethereum:0x123", custom_claims: { address: "not-an-address" } },
      }),
    ).toBeNull();
  });
});

test("shortAddress keeps the first 6 and last 4 characters", () => {
  expect(shortAddress(address)).toBe("0x48f2…F7a8");
});

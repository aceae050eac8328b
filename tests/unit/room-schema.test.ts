import { describe, expect, test } from "vitest";
import { fieldErrors } from "../../lib/validation/profile";
import { gateInputSchema, gateRecord, roomFieldsSchema, roomMessages } from "../../lib/validation/room";

const room = { slug: "night-owls", name: "Night Owls", description: "Late listening." };
const gate = {
  chainId: "8453",
  contractAddress: "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9",
  standard: "erc20",
  tokenId: "",
  minBalance: "1",
};

function roomErrors(input: Record<string, unknown>) {
  const parsed = roomFieldsSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
}

function gateErrors(input: Record<string, unknown>) {
  const parsed = gateInputSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
}

describe("roomFieldsSchema", () => {
  test("accepts a valid room, trimming what people type and lower-casing the address", () => {
    expect(roomFieldsSchema.parse({ slug: " Night-Owls ", name: "  Night Owls ", description: " Late listening. " })).toEqual(room);
  });

  test("a missing description is empty", () => {
    expect(roomFieldsSchema.parse({ slug: "abc", name: "x" })).toEqual({ slug: "abc", name: "x", description: "" });
  });

  test.each(["ab", "a".repeat(49), "-night", "night-", "night owls", "night_owls", "nüght", "", "night.owls"])(
    "refuses the address %j with the format message",
    (slug) => {
      expect(roomErrors({ ...room, slug })).toEqual({ slug: roomMessages.slugFormat });
    },
  );

  test("accepts the limits themselves", () => {
    expect(roomErrors({ slug: "a-1", name: "x", description: "" })).toEqual({});
    expect(roomErrors({ slug: "a".repeat(48), name: "x".repeat(80), description: "y".repeat(500) })).toEqual({});
  });

  test("a blank name, a long one and a long description each get their own message", () => {
    expect(roomErrors({ ...room, name: "   " })).toEqual({ name: roomMessages.nameRequired });
    expect(roomErrors({ ...room, name: "x".repeat(81) })).toEqual({ name: roomMessages.nameTooLong });
    expect(roomErrors({ ...room, description: "y".repeat(501) })).toEqual({ description: roomMessages.descriptionTooLong });
  });

  test("the messages are the database constraints' comments", () => {
    expect(roomMessages.slugFormat).toBe("Room addresses use 3–48 lowercase letters, digits or -, not starting or ending with -");
    expect(roomMessages.slugTaken).toBe("That address is taken");
    expect(roomMessages.nameTooLong).toBe("Room names are 1–80 characters");
    expect(roomMessages.descriptionTooLong).toBe("Descriptions are up to 500 characters");
    expect(roomMessages.chainUnsupported).toBe("That chain is not supported");
    expect(roomMessages.minBalanceFormat).toBe("The minimum balance is a whole number of at least 1");
  });
});

describe("gateInputSchema", () => {
  test("normalises a form's gate: numeric chain, lowercase address, no token id, whole-number balance", () => {
    expect(
      gateInputSchema.parse({ ...gate, contractAddress: " 0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9 ", minBalance: " 007 " }),
    ).toEqual({
      chainId: 8453,
      contractAddress: "0xdc64a140aa3e981100a9beca4e685f962f0cf6c9",
      standard: "erc20",
      tokenId: null,
      minBalance: "7",
    });
  });

  test("takes numbers from code as well as text from forms", () => {
    expect(gateInputSchema.parse({ ...gate, chainId: 31337, minBalance: 2 })).toMatchObject({ chainId: 31337, minBalance: "2" });
  });

  test("every supported chain is accepted; any other is refused", () => {
    for (const chainId of [1, 10, 137, 8453, 42161, 31337]) expect(gateErrors({ ...gate, chainId })).toEqual({});
    for (const chainId of [5, 56, "base", "", "1e3", -1, 1.5])
      expect(gateErrors({ ...gate, chainId })).toEqual({ chainId: roomMessages.chainUnsupported });
  });

  test.each([
    "",
    "0x",
    "0x123",
    "Dc64a140Aa3E981100a9becA4E685f962f0cF6C9",
    "0xZc64a140Aa3E981100a9becA4E685f962f0cF6C9",
    "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9aa",
    "ada.eth",
  ])("refuses the contract address %j", (contractAddress) => {
    expect(gateErrors({ ...gate, contractAddress })).toEqual({ contractAddress: roomMessages.contractAddressFormat });
  });

  test("a missing address or standard gets the field's message, not zod's", () => {
    expect(gateErrors({ chainId: 1, minBalance: "1" })).toEqual({
      contractAddress: roomMessages.contractAddressFormat,
      standard: roomMessages.standardUnknown,
    });
    expect(gateErrors({ ...gate, standard: "erc777" })).toEqual({ standard: roomMessages.standardUnknown });
  });

  test("an ERC-1155 gate needs a token id; the other standards refuse one", () => {
    expect(gateErrors({ ...gate, standard: "erc1155", tokenId: "" })).toEqual({ tokenId: roomMessages.tokenIdRequired });
    expect(gateErrors({ ...gate, standard: "erc1155", tokenId: undefined })).toEqual({ tokenId: roomMessages.tokenIdRequired });
    expect(gateInputSchema.parse({ ...gate, standard: "erc1155", tokenId: " 0 " })).toMatchObject({ standard: "erc1155", tokenId: "0" });
    expect(gateErrors({ ...gate, standard: "erc721", tokenId: "1" })).toEqual({ tokenId: roomMessages.tokenIdNotAllowed });
    expect(gateErrors({ ...gate, standard: "erc20", tokenId: "1" })).toEqual({ tokenId: roomMessages.tokenIdNotAllowed });
  });

  test.each(["-1", "abc", "1.5", "01x", "9".repeat(79)])("refuses the token id %j", (tokenId) => {
    expect(gateErrors({ ...gate, standard: "erc1155", tokenId })).toEqual({ tokenId: roomMessages.tokenIdFormat });
  });

  test("a token id is at most 2^256 - 1, as the database holds it (room_gates_numbers_in_uint256)", () => {
    const max = (2n ** 256n - 1n).toString();
    expect(gateErrors({ ...gate, standard: "erc1155", tokenId: max })).toEqual({});
    expect(gateErrors({ ...gate, standard: "erc1155", tokenId: (2n ** 256n).toString() })).toEqual({
      tokenId: roomMessages.tokenIdTooLarge,
    });
  });

  test.each(["0", "000", "-1", "1.5", "0.5", "abc", "", " ", "1e18", "9".repeat(79), 0, -3, 1.5])(
    "refuses the minimum balance %j",
    (minBalance) => {
      expect(gateErrors({ ...gate, minBalance })).toEqual({ minBalance: roomMessages.minBalanceFormat });
    },
  );
});

describe("gateRecord", () => {
  test("an ERC-20 minimum in whole tokens becomes smallest units with the token's decimals", () => {
    const record = gateRecord(gateInputSchema.parse({ ...gate, minBalance: "5" }), 18);
    expect(record).toEqual({
      ok: true,
      data: {
        chain_id: 8453,
        contract_address: "0xdc64a140aa3e981100a9beca4e685f962f0cf6c9",
        standard: "erc20",
        token_id: null,
        min_balance: "5000000000000000000",
      },
    });
    expect(gateRecord(gateInputSchema.parse({ ...gate, minBalance: "5" }), 6)).toMatchObject({ data: { min_balance: "5000000" } });
  });

  test("ERC-721 and ERC-1155 minimums are counts, stored as typed", () => {
    expect(gateRecord(gateInputSchema.parse({ ...gate, standard: "erc721", minBalance: "2" }), 0)).toMatchObject({
      data: { standard: "erc721", min_balance: "2" },
    });
    expect(gateRecord(gateInputSchema.parse({ ...gate, standard: "erc1155", tokenId: "7", minBalance: "3" }), 0)).toMatchObject({
      data: { token_id: "7", min_balance: "3" },
    });
  });

  test("an amount past uint256 once scaled is an error for the minimum balance", () => {
    expect(gateRecord(gateInputSchema.parse({ ...gate, minBalance: "1" + "0".repeat(70) }), 18)).toEqual({
      ok: false,
      error: { field: "minBalance", message: roomMessages.minBalanceTooLarge },
    });
  });
});

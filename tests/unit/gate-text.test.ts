import { describe, expect, test } from "vitest";
import { formatUnits, wholeTokensToUnits } from "../../lib/chain/units";
import { noWalletText, notEnoughTokensText, requirementText } from "../../lib/rooms/gate-text";

describe("token amounts", () => {
  test("smallest units read as human units, without rounding", () => {
    expect(formatUnits(10n ** 18n, 18)).toBe("1");
    expect(formatUnits(15n * 10n ** 17n, 18)).toBe("1.5");
    expect(formatUnits(1n, 18)).toBe("0.000000000000000001");
    expect(formatUnits(0n, 6)).toBe("0");
    expect(formatUnits(1234500n, 6)).toBe("1.2345");
    expect(formatUnits(42n, 0)).toBe("42");
  });

  test("whole tokens become smallest units", () => {
    expect(wholeTokensToUnits("1", 18)).toBe(10n ** 18n);
    expect(wholeTokensToUnits("25", 6)).toBe(25_000_000n);
    expect(wholeTokensToUnits("3", 0)).toBe(3n);
  });
});

describe("gate text", () => {
  const cue = {
    standard: "erc20",
    minBalance: "1000000000000000000",
    tokenId: null,
    symbol: "CUE",
    decimals: 18,
    chainName: "Local chain",
    shortAddress: "0xDc64…F6C9",
  } as const;

  test("an ERC-20 gate in human units with the symbol", () => {
    expect(requirementText(cue)).toBe("At least 1 CUE on Local chain");
    expect(notEnoughTokensText({ ...cue, chainName: "Base" })).toBe(
      "You need at least 1 CUE on Base to join. None of your linked wallets hold enough.",
    );
    expect(requirementText({ ...cue, minBalance: "2500000000000000000" })).toBe("At least 2.5 CUE on Local chain");
  });

  test("an ERC-721 gate counts tokens", () => {
    expect(requirementText({ ...cue, standard: "erc721", minBalance: "2", symbol: "CUEPASS", decimals: 0 })).toBe(
      "At least 2 CUEPASS on Local chain",
    );
  });

  test("a token without a symbol is named by its address, as PRODUCT.md's example", () => {
    expect(
      notEnoughTokensText({
        ...cue,
        standard: "erc721",
        minBalance: "1",
        symbol: null,
        decimals: 0,
        chainName: "Base",
        shortAddress: "0xAb12…cdEF",
      }),
    ).toBe("You need at least 1 token of 0xAb12…cdEF on Base to join. None of your linked wallets hold enough.");
    expect(requirementText({ ...cue, standard: "erc721", minBalance: "3", symbol: " ", decimals: 0 })).toBe(
      "At least 3 tokens of 0xDc64…F6C9 on Local chain",
    );
  });

  test("an ERC-1155 gate names the token id", () => {
    expect(
      requirementText({
        ...cue,
        standard: "erc1155",
        minBalance: "3",
        tokenId: "1",
        symbol: null,
        decimals: 0,
        shortAddress: "0x0165…Eb8F",
      }),
    ).toBe("At least 3 of token #1 of 0x0165…Eb8F on Local chain");
  });

  test("no linked wallet says what to do", () => {
    expect(noWalletText(cue)).toBe(
      "You need at least 1 CUE on Local chain to join. Link a wallet that holds it on your account page, then join again.",
    );
  });
});

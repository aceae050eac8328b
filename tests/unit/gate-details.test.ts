// A gated room names its token: by its name, symbol and chain, with a link to it on the chain's
// explorer where there is one — never a raw contract as the main text.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { GateRequirement } from "@/components/rooms/gate-requirement";
import { tokenExplorerLink } from "@/lib/chain/chains";
import { type GateDetails, tokenTitle } from "@/lib/rooms/gate-details";

const contract = "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707";

test("a token's page on its chain's explorer; none on the local chain or an unknown one", () => {
  expect(tokenExplorerLink(8453, contract)).toEqual({ name: "Basescan", url: `https://basescan.org/token/${contract}` });
  expect(tokenExplorerLink(1, contract.toUpperCase().replace("0X", "0x"), "7")).toEqual({
    name: "Etherscan",
    url: `https://etherscan.io/token/${contract}?a=7`,
  });
  expect(tokenExplorerLink(31337, contract)).toBeNull();
  expect(tokenExplorerLink(999, contract)).toBeNull();
  expect(tokenExplorerLink(1, "javascript:alert(1)")).toBeNull();
});

test("a token is its name and symbol, as it says them", () => {
  expect(tokenTitle("Cuepoint Pass", "CUEPASS")).toBe("Cuepoint Pass (CUEPASS)");
  expect(tokenTitle("CUEPASS", "CUEPASS")).toBe("CUEPASS");
  expect(tokenTitle(null, "CUE")).toBe("CUE");
  expect(tokenTitle(null, null)).toBeNull();
});

const details = (patch: Partial<GateDetails> = {}): GateDetails => ({
  requirement: "Holders of at least 1 CUEPASS on Base",
  token: "Cuepoint Pass (CUEPASS)",
  standard: "ERC-721",
  chainName: "Base",
  shortAddress: "0x5FC8…5707",
  address: contract,
  explorer: tokenExplorerLink(8453, contract),
  ...patch,
});

test("who may join: the requirement first, the token by name, the contract quietly, and where to find it", () => {
  const html = renderToStaticMarkup(createElement(GateRequirement, { details: details() }));
  expect(html).toMatch(/^<div[^>]*><p>Holders of at least 1 CUEPASS on Base<\/p>/);
  expect(html).toContain("Cuepoint Pass (CUEPASS)");
  expect(html).toContain(`href="https://basescan.org/token/${contract}"`);
  expect(html).toContain("See the token on Basescan");
  expect(html).toContain('rel="noopener noreferrer"');
});

test("on the local chain, with no explorer, it says whom to ask", () => {
  const html = renderToStaticMarkup(
    createElement(GateRequirement, {
      details: details({
        chainName: "Local chain",
        explorer: null,
        requirement: "Holders of an ERC-721 token on Local chain",
        token: null,
      }),
    }),
  );
  expect(html).toContain("Local chain has no public explorer — ask the room&#x27;s owner how to get a pass.");
  expect(html).not.toContain("<a ");
  expect(html).toMatch(/<p>Holders of an ERC-721 token on Local chain<\/p>/);
});

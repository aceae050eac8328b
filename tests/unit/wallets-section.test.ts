// The thirdweb rule on /account: without credentials the Wallets section shows the seed's message
// instead of "Link a wallet", and still lists (and lets the person unlink) what is linked.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { WalletsSection } from "../../components/wallets/wallets-section";
import { missingCredentialsMessage } from "../../lib/chain/credentials";

test("without thirdweb credentials: the seed's message, no link button", () => {
  const html = renderToStaticMarkup(createElement(WalletsSection, { wallets: [], clientId: null, unavailable: missingCredentialsMessage, now: Date.now() }));
  expect(html).toContain("clientId or secretKey must be provided");
  expect(html).not.toContain("<button");
  expect(html).toContain("No wallets linked yet.");
});

// The thirdweb rule on /account: without credentials the Wallets section says so in plain words, with
// the seed's message for the site's owner, instead of "Link a wallet", and still lists (and lets the
// person unlink) what is linked.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { WalletsSection } from "../../components/wallets/wallets-section";
import { missingCredentialsMessage } from "../../lib/chain/credentials";
import { namesNeedRefresh } from "../../lib/wallets/ens-freshness";

test("without thirdweb credentials: a plain sentence first, the seed's message in small print for the site's owner, no link button", () => {
  const html = renderToStaticMarkup(
    createElement(WalletsSection, { wallets: [], clientId: null, unavailable: missingCredentialsMessage, namesStale: false }),
  );
  expect(html).toContain(`<p class="font-medium">Linking wallets isn&#x27;t set up on this site</p>`);
  expect(html).toContain("For the site&#x27;s owner: <code");
  expect(html).toContain("clientId or secretKey must be provided");
  expect(html).not.toContain("<button");
  expect(html).toContain("No wallets linked yet.");
});

test("names are looked up again when never looked up or over a day old, not sooner", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  expect(namesNeedRefresh([{ ens_checked_at: "2026-11-23T00:00:00Z" }], now)).toBe(false);
  expect(namesNeedRefresh([{ ens_checked_at: "2026-11-23T00:00:00Z" }, { ens_checked_at: null }], now)).toBe(true);
  expect(namesNeedRefresh([{ ens_checked_at: "2026-11-22T11:59:00Z" }], now)).toBe(true);
});

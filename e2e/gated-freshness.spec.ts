import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { contracts, deployer } from "../chain/deployment";
import { joinRoom } from "../lib/rooms/join";
import { fundGas, mintErc721, transferErc721 } from "../tests/helpers/tokens";
import { alertInMain, checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// A gated room's membership counts in the database only while its balance check is recent; the
// pages re-check first. A holder whose check went stale opens a post page and reads on without
// noticing (the check is renewed on the way); once they have sold the pass, their next page says why.

const twoHoursAgo = () => new Date(Date.now() - 2 * 3600_000).toISOString();

test("a holder whose check went stale reads a post page without noticing; after selling the pass, the next page says why", async ({
  browser,
}) => {
  const [owner, holder] = await Promise.all([createConfirmedUser("fresh-owner"), createConfirmedUser("fresh-holder")]);
  const ownerClient = await signedInClient(owner.email, owner.password);
  const slug = `fresh-gate-${Date.now().toString(36)}`;
  const gate = { chain_id: 31337, contract_address: contracts.erc721.toLowerCase(), standard: "erc721", token_id: null, min_balance: "1" };
  const { data: room, error: roomError } = await ownerClient.rpc("create_room", { slug, name: "Holders' corner", description: "", gate });
  expect(roomError).toBeNull();
  const roomId = (room as { id: string }).id;
  const { data: post, error: postError } = await ownerClient
    .from("posts")
    .insert({
      room_id: roomId,
      author_id: owner.id,
      title: "For holders only",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
    })
    .select("id")
    .single();
  expect(postError).toBeNull();

  // The holder's wallet holds a pass; they joined through the join-room function, as the app does.
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await fundGas(address);
  const tokenId = await mintErc721(address);
  expect((await service.from("wallets").insert({ user_id: holder.id, address: address.toLowerCase() })).error).toBeNull();
  const holderClient = await signedInClient(holder.email, holder.password);
  expect(await joinRoom(holderClient, roomId)).toMatchObject({ ok: true });
  const lastCheck = async () =>
    (await service.from("memberships").select("verified_at").eq("room_id", roomId).eq("user_id", holder.id).maybeSingle()).data;

  // Two hours later: the database no longer counts the old check…
  expect(
    (await service.from("memberships").update({ verified_at: twoHoursAgo() }).eq("room_id", roomId).eq("user_id", holder.id)).error,
  ).toBeNull();
  expect((await holderClient.from("posts").select("id").eq("room_id", roomId)).data).toEqual([]);

  // …and the post page, opened now, reads just the same: it re-checked the pass first.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, holder.email, holder.password);
  await page.waitForURL("/");
  await page.goto(`/r/${slug}/p/${post!.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "For holders only" })).toBeVisible();
  await expect(alertInMain(page)).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Add a comment" })).toBeVisible();
  const renewed = await lastCheck();
  expect(Date.now() - Date.parse(renewed!.verified_at!)).toBeLessThan(5 * 60_000);
  await checkPage(page, "post-gated-check-renewed");

  // The holder sells the pass; an hour or more later, their next page says why they are out.
  await transferErc721(key, deployer.address, tokenId);
  expect(
    (await service.from("memberships").update({ verified_at: twoHoursAgo() }).eq("room_id", roomId).eq("user_id", holder.id)).error,
  ).toBeNull();
  await page.goto(`/r/${slug}/p/${post!.id}`);
  await expect(alertInMain(page)).toContainText(
    "You are no longer a member of this room. You need at least 1 CUEPASS on Local chain to join. None of your linked wallets hold enough.",
  );
  await expect(alertInMain(page).getByRole("link", { name: "Check your linked wallets" })).toHaveAttribute("href", "/account#wallets");
  await expect(page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  await expect(page.getByText("For holders only")).toHaveCount(0);
  expect(await lastCheck()).toBeNull();
  await checkPage(page, "post-gated-lapsed");
  expect(errors).toEqual([]);
  await context.close();
});

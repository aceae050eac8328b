// The link rule's table of cases (tests/fixtures/media-links.json), on the database's side: the
// check a link post's media_url must pass (private.is_media_url) says what the app's rule says
// (tests/unit/media-link-cases.test.ts), and a member's REST insert of a link the app would not
// store is refused with the constraint's words.
import { readFileSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { createRoom } from "../helpers/rooms";
import { adminQuery } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

const { cases } = JSON.parse(readFileSync(new URL("../fixtures/media-links.json", import.meta.url), "utf8")) as {
  cases: { url: string; stored: boolean }[];
};

test.each(cases)("the database: $url is stored $stored", async ({ url, stored }) => {
  const [row] = await adminQuery<{ ok: boolean }>("select private.is_media_url($1) as ok", [url]);
  expect(row.ok).toBe(stored);
});

const people: string[] = [];
afterAll(async () => {
  for (const id of people) await admin.auth.admin.deleteUser(id);
});

test("a member's REST insert of a hostile link is refused; a good one goes in", async () => {
  const member = await signedInUser("links");
  people.push(member.id);
  const room = await createRoom(member.client, "links");
  for (const url of [
    "https://[x]",
    "https://a%b/",
    "https://a:99999/",
    "https://xn--/",
    "https://127.0.0.1/a",
    "https://user:pw@example.com/a",
  ]) {
    const { error } = await member.client
      .from("posts")
      .insert({ room_id: room.id, author_id: member.id, title: "t", media_kind: "embed", media_url: url });
    expect(error, url).toMatchObject({ code: "23514" });
    expect(error?.message, url).toContain("posts_media_url_rule");
  }
  const good = await member.client
    .from("posts")
    .insert({ room_id: room.id, author_id: member.id, title: "Fine", media_kind: "embed", media_url: "https://vimeo.com/76979871" });
  expect(good.error).toBeNull();
});

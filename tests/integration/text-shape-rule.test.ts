// The free-text rules' table of cases (tests/fixtures/text-shapes.json), on the database's side: a
// member's REST update of their display name and bio, and a comment written through REST, are
// stored or refused as the app's rules say (tests/unit/text-shape-cases.test.ts). Room names and post
// titles are lines too, and descriptions and post texts bodies: the same refusals, with the
// constraints' names the forms map to words.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRoom } from "../helpers/rooms";
import { textShapeCases } from "../helpers/text-shapes";
import { admin, signedInUser } from "../helpers/wallets";

type Member = Awaited<ReturnType<typeof signedInUser>>;
let member: Member;
let room: { id: string; slug: string };
let postId: string;

beforeAll(async () => {
  member = await signedInUser("text-shapes");
  room = await createRoom(member.client, "text-shapes");
  const { data, error } = await member.client
    .from("posts")
    .insert({ room_id: room.id, author_id: member.id, title: "Shapes", media_kind: "embed", media_url: "https://vimeo.com/76979871" })
    .select("id")
    .single();
  if (error) throw error;
  postId = data.id;
});

afterAll(async () => {
  if (member) await admin.auth.admin.deleteUser(member.id);
});

const refusedBy = (error: { code?: string; message: string } | null, constraint: string) =>
  expect(error).toMatchObject({ code: "23514", message: expect.stringContaining(constraint) });

describe.each(textShapeCases)("$name", ({ value, line, body, comment }) => {
  test(`as a display name: ${line}`, async () => {
    const { error } = await member.client.from("profiles").update({ display_name: value }).eq("id", member.id);
    if (line) expect(error).toBeNull();
    else expect(error).toMatchObject({ code: "23514", message: expect.stringMatching(/profiles_display_name_(length|characters)/) });
  });

  test(`as a bio: ${body}`, async () => {
    const { error } = await member.client.from("profiles").update({ bio: value }).eq("id", member.id);
    if (body) expect(error).toBeNull();
    else expect(error).toMatchObject({ code: "23514", message: expect.stringMatching(/profiles_bio_(length|characters)/) });
  });

  // Written by the server's client: a member's comments are rate-limited, and this table is longer than a minute's allowance.
  test(`as a comment: ${comment}`, async () => {
    const { error } = await admin.from("moments").insert({ post_id: postId, author_id: member.id, at_seconds: null, body: value } as never);
    if (comment) expect(error).toBeNull();
    else expect(error).toMatchObject({ code: "23514", message: expect.stringMatching(/moments_body_(length|characters)/) });
  });
});

test("a room's name and a post's title are lines; its description and a post's text are bodies", async () => {
  const rooms = member.client.from("rooms");
  refusedBy((await rooms.update({ name: "\u202egnp.exe" }).eq("id", room.id)).error, "rooms_name_characters");
  refusedBy((await rooms.update({ name: "\u3164\u200b" }).eq("id", room.id)).error, "rooms_name_length");
  refusedBy((await rooms.update({ description: "bell\u0007" }).eq("id", room.id)).error, "rooms_description_characters");
  expect((await rooms.update({ name: "שלום", description: "two\nlines \u202eand an override" }).eq("id", room.id)).error).toBeNull();

  const posts = member.client.from("posts");
  refusedBy((await posts.update({ title: "a\u2066b" }).eq("id", postId)).error, "posts_title_characters");
  refusedBy((await posts.update({ title: "\u00a0\u2800" }).eq("id", postId)).error, "posts_title_length");
  refusedBy((await posts.update({ body: "esc\u001b[0m" }).eq("id", postId)).error, "posts_body_characters");
  expect((await posts.update({ title: "مرحبا", body: "tab\tand\r\nlines" }).eq("id", postId)).error).toBeNull();
});

test("a NUL character never reaches a row: Postgres refuses it before any check", async () => {
  const { error } = await member.client.from("profiles").update({ display_name: "a\u0000b" }).eq("id", member.id);
  expect(error?.code).toMatch(/^22/);
});

test("a sign-up's display name keeps to the rule: forbidden characters dropped, nothing visible left falls back to the username", async () => {
  const created: string[] = [];
  try {
    for (const [given, shown] of [
      ["\u202eAda\u202c", "Ada"],
      ["\u3164\u200b", null],
      ["Bo\u0007 Diddley", "Bo Diddley"],
    ] as const) {
      const { data, error } = await admin.auth.admin.createUser({
        email: `shape-${created.length}-${Date.now()}@example.com`,
        password: "correct horse battery",
        email_confirm: true,
        user_metadata: { display_name: given },
      });
      expect(error).toBeNull();
      created.push(data.user!.id);
      const { data: profile } = await admin.from("profiles").select("username, display_name").eq("id", data.user!.id).single();
      expect(profile!.display_name).toBe(shown ?? profile!.username);
    }
  } finally {
    for (const id of created) await admin.auth.admin.deleteUser(id);
  }
});

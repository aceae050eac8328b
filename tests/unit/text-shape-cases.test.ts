// The free-text rules' table of cases (tests/fixtures/text-shapes.json), on the app's side: the
// profile form's display name and bio and the comment form's body accept exactly what the table
// says. tests/integration/text-shape-rule.test.ts asks the database the same.
import { describe, expect, test } from "vitest";
import { momentBodySchema } from "@/lib/validation/moment";
import { profileSchema } from "@/lib/validation/profile";
import { characterCount, textMessages } from "@/lib/validation/text";
import { textShapeCases } from "../helpers/text-shapes";

describe.each(textShapeCases)("$name", ({ value, line, body, comment }) => {
  test(`as a display name: ${line}`, () => expect(profileSchema.shape.displayName.safeParse(value).success).toBe(line));
  test(`as a bio: ${body}`, () => expect(profileSchema.shape.bio.safeParse(value).success).toBe(body));
  test(`as a comment: ${comment}`, () => expect(momentBodySchema.safeParse(value).success).toBe(comment));
});

test("a NUL character (which Postgres cannot store) is refused everywhere, with words", () => {
  expect(profileSchema.shape.displayName.safeParse("a\u0000b").error?.issues[0].message).toBe(textMessages.lineCharacters);
  expect(profileSchema.shape.bio.safeParse("a\u0000b").error?.issues[0].message).toBe(textMessages.bodyCharacters);
  expect(momentBodySchema.safeParse("a\u0000b").error?.issues[0].message).toBe(textMessages.bodyCharacters);
});

test("each refusal says which rule, one message at a time", () => {
  const messages = (value: string) => profileSchema.shape.displayName.safeParse(value).error?.issues.map((issue) => issue.message);
  expect(messages("\u00a0\u200b")).toEqual(["Enter the name people see"]);
  expect(messages("x".repeat(51))).toEqual(["Names are up to 50 characters"]);
  expect(messages("\u202egnp.exe")).toEqual([textMessages.lineCharacters]);
  expect(momentBodySchema.safeParse(" \n ").error?.issues.map((issue) => issue.message)).toEqual(["Write a comment"]);
});

test("lengths count characters, not UTF-16 units", () => {
  expect(characterCount("🔥".repeat(50))).toBe(50);
  expect("🔥".repeat(50).length).toBe(100);
});

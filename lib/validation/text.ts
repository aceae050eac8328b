import { z } from "./zod.ts";

// The shapes of the free text a member writes, for every form and action that takes it. The
// database holds the same rules (private.has_visible_text, is_line_characters, is_body_characters in
// supabase/migrations/20261127000500_text_shapes.sql) and both sides run the cases in
// tests/fixtures/text-shapes.json.
//
// A line (a name, a title): something visible, no control characters, none of the characters that
// reorder the text around them (bidi embeddings, overrides, isolates). A body (a bio, a description,
// a post's text, a comment): line breaks and tabs allowed, no other control characters. Lengths
// count characters (code points), not UTF-16 units: 🔥 is one.

/** Whitespace, zero-width and filler characters: a text of only these shows nothing. */
const blank =
  "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u115f\\u1160\\u1680\\u180e\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u2800\\u3000\\u3164\\ufeff\\uffa0";
const visible = new RegExp(`[^${blank}]`, "u");

const lineForbidden = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

const bodyForbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

export const textMessages = {
  lineCharacters: "Use letters, numbers and symbols only — no control or text-direction characters",
  bodyCharacters: "Remove the control characters from this text",
} as const;

export const characterCount = (value: string) => [...value].length;
export const hasVisibleText = (value: string) => visible.test(value);
export const isLineCharacters = (value: string) => !lineForbidden.test(value);
export const isBodyCharacters = (value: string) => !bodyForbidden.test(value);

/** One line of visible text, trimmed, up to `max` characters. */
export function lineText(max: number, messages: { required: string; tooLong: string }) {
  return z
    .string()
    .trim()
    .refine(hasVisibleText, { error: messages.required, abort: true })
    .refine((value) => characterCount(value) <= max, { error: messages.tooLong, abort: true })
    .refine(isLineCharacters, { error: textMessages.lineCharacters });
}

/**
 * Free text up to `max` characters, line breaks allowed; trimmed unless `trim` is false.
 * `required` also asks for something visible.
 */
export function bodyText(max: number, messages: { tooLong: string; required?: string }, { trim = true } = {}) {
  const text = trim ? z.string().trim() : z.string();
  const required = messages.required;
  return text
    .refine((value) => !required || hasVisibleText(value), { error: required, abort: true })
    .refine((value) => characterCount(value) <= max, { error: messages.tooLong, abort: true })
    .refine(isBodyCharacters, { error: textMessages.bodyCharacters });
}

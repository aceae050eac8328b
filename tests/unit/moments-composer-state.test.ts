// What the post page's and the session's comment forms share (lib/moments/composer-state.ts): the
// stamp taken from playback, the typed time checked as the server checks it, and a reducer under
// which nothing the person typed is lost until their comment is posted.
import { describe, expect, test } from "vitest";
import {
  type ComposerState,
  composerReducer,
  initialComposerState,
  type MomentStamp,
  placeStamp,
  stampAt,
} from "@/lib/moments/composer-state";
import { momentAtSchema } from "@/lib/validation/moment";

const post = { id: "30000000-0000-4000-8000-000000000001", durationSeconds: 240 };
const typed = (text: string): MomentStamp => ({ postId: post.id, seconds: null, text });

describe("the stamp", () => {
  test("is playback's position to the millisecond, never past the media's end; none when nothing plays", () => {
    expect(stampAt(post, 102.71849)).toEqual({ postId: post.id, seconds: 102.718, text: "1:42" });
    expect(stampAt(post, 300)).toEqual({ postId: post.id, seconds: 240, text: "4:00" });
    expect(stampAt({ ...post, durationSeconds: null }, 300)).toEqual({ postId: post.id, seconds: 300, text: "5:00" });
    expect(stampAt(post, null)).toBeNull();
    expect(stampAt(null, 12)).toBeNull();
  });

  test("a typed time is read and checked as the server checks it, and against the media's length", () => {
    expect(placeStamp(typed("1:02"), 240, momentAtSchema)).toEqual({ ok: true, postId: post.id, atSeconds: 62 });
    expect(placeStamp(stampAt(post, 12.4)!, 240, momentAtSchema)).toEqual({ ok: true, postId: post.id, atSeconds: 12.4 });
    expect(placeStamp(typed("soon"), 240, momentAtSchema)).toEqual({ ok: false, field: "atSeconds", error: "Pick a time in the media" });
    expect(placeStamp(typed("-0:05"), 240, momentAtSchema)).toEqual({
      ok: false,
      field: "atSeconds",
      error: "A moment can't be before the start",
    });
    expect(placeStamp(typed("5:00"), 240, momentAtSchema)).toEqual({
      ok: false,
      field: "atSeconds",
      error: "That time is past the end of the media",
    });
    // Before the schemas load (or offline), the length still bounds it; the server checks the rest.
    expect(placeStamp(typed("-0:05"), 240, null)).toEqual({ ok: true, postId: post.id, atSeconds: -5 });
    expect(placeStamp(typed("5:00"), null, momentAtSchema)).toEqual({ ok: true, postId: post.id, atSeconds: 300 });
  });
});

const run = (...actions: Parameters<typeof composerReducer>[1][]): ComposerState => actions.reduce(composerReducer, initialComposerState);
const stamp = stampAt(post, 12)!;

describe("the composer's state", () => {
  test("typing keeps the stamp taken when it began, and hides what was last posted", () => {
    const posted = run({ type: "posted", notice: "Posted." });
    const typing = composerReducer(posted, { type: "edit", body: "T", stamp });
    expect(typing).toMatchObject({ body: "T", stamp, posted: null });
    expect(composerReducer(typing, { type: "edit", body: "Th" })).toMatchObject({ body: "Th", stamp });
    expect(composerReducer(typing, { type: "stamp", stamp: null })).toMatchObject({ body: "T", stamp: null });
  });

  test("a failed check shows next to its field and keeps the text and the stamp", () => {
    const state = run(
      { type: "edit", body: "x".repeat(1001), stamp },
      { type: "submit" },
      { type: "checked", errors: { body: "Comments are up to 1000 characters" }, formError: null },
    );
    expect(state).toMatchObject({
      body: "x".repeat(1001),
      stamp,
      errors: { body: "Comments are up to 1000 characters" },
      formError: null,
      pending: false,
    });
  });

  test("a refusal goes next to a field the form shows, else to the form, and keeps everything typed", () => {
    const sending = run(
      { type: "edit", body: "Swell", stamp },
      { type: "submit" },
      { type: "checked", errors: {}, formError: null },
      { type: "send" },
    );
    expect(sending.pending).toBe(true);
    const refused = (fields: readonly ("body" | "atSeconds")[]) =>
      composerReducer(sending, {
        type: "refused",
        error: "That time is past the end of the media",
        errors: { atSeconds: "That time is past the end of the media" },
        fields,
      });
    expect(refused(["body", "atSeconds"])).toMatchObject({
      body: "Swell",
      stamp,
      pending: false,
      errors: { atSeconds: "That time is past the end of the media" },
      formError: null,
    });
    expect(refused(["body"])).toMatchObject({
      body: "Swell",
      stamp,
      pending: false,
      errors: {},
      formError: "That time is past the end of the media",
    });
    const sessionOver = composerReducer(sending, {
      type: "refused",
      error: "The listening session has ended — your comment wasn't posted.",
      fields: ["body"],
    });
    expect(sessionOver).toMatchObject({ body: "Swell", stamp, formError: "The listening session has ended — your comment wasn't posted." });
  });

  test("posting clears the text and the stamp and says so; the next submit clears the notice and the form's error", () => {
    const posted = run(
      { type: "edit", body: "Swell", stamp },
      { type: "submit" },
      { type: "send" },
      { type: "posted", notice: "Posted at 0:12." },
    );
    expect(posted).toMatchObject({ body: "", stamp: null, pending: false, posted: "Posted at 0:12." });
    const failed = run(
      { type: "checked", errors: {}, formError: "Nothing is playing — comment once the session plays a post." },
      { type: "edit", body: "again" },
    );
    expect(composerReducer({ ...failed, posted: "Posted." }, { type: "submit" })).toMatchObject({
      body: "again",
      formError: null,
      posted: null,
    });
  });
});

// @names: which ones a text holds (as the database reads them), which become links (only those its
// mention rows name, by the current username), and the @ autocomplete's state.
import { describe, expect, test } from "vitest";
import {
  announcement,
  autocompleteReducer,
  initialAutocomplete,
  insertMention,
  isOpen,
  type MemberOption,
  queryAt,
} from "@/lib/mentions/autocomplete";
import { mentionedHandles, mentionParts } from "@/lib/mentions/tokens";

const bob = { user_id: "u-bob", handle: "bob", person: { username: "bobby" } };

describe("tokens", () => {
  test("@names as the database reads them: not in words, emails or URLs, 3–24 characters", () => {
    expect(mentionedHandles("hi @Bob and @carol_1, @bob again")).toEqual(["bob", "carol_1"]);
    expect(mentionedHandles("mail ada@example.com or https://x.com/@ada or a@@bob")).toEqual([]);
    expect(mentionedHandles("@ab @abc @abcdefghijklmnopqrstuvwxy")).toEqual(["abc"]);
    expect(mentionedHandles("(@dave) said")).toEqual(["dave"]);
  });

  test("only a handle its mention rows hold becomes a link, to the current username", () => {
    expect(mentionParts("hi @Bob, not @carol", [bob])).toEqual([
      { text: "hi " },
      { text: "@Bob", username: "bobby", userId: "u-bob" },
      { text: ", not @carol" },
    ]);
    expect(mentionParts("hi @bob", [])).toEqual([{ text: "hi @bob" }]);
    expect(mentionParts("hi @bob", undefined)).toEqual([{ text: "hi @bob" }]);
    expect(mentionParts("", [bob])).toEqual([]);
    // A mention whose person is unreadable stays text.
    expect(mentionParts("hi @bob", [{ ...bob, person: null }])).toEqual([{ text: "hi @bob" }]);
  });

  test("markup stays text: nothing but the @name is a link", () => {
    const parts = mentionParts('<img src=x onerror=alert(1)> @bob <a href="javascript:x">', [bob]);
    expect(parts.map((part) => part.text).join("")).toBe('<img src=x onerror=alert(1)> @bob <a href="javascript:x">');
    expect(parts.filter((part) => "username" in part)).toHaveLength(1);
  });
});

describe("autocomplete", () => {
  const ada: MemberOption = { id: "1", username: "ada", display_name: "Ada", avatar_path: null };
  const adam: MemberOption = { id: "2", username: "adam", display_name: "Adam", avatar_path: null };

  test("the @name being typed at the caret", () => {
    expect(queryAt("hi @ad", 6)).toEqual({ start: 3, query: "ad" });
    expect(queryAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(queryAt("hi @Ad there", 6)).toEqual({ start: 3, query: "ad" });
    expect(queryAt("ada@ex", 6)).toBeNull();
    expect(queryAt("hi @ad there", 12)).toBeNull();
    expect(queryAt("x.com/@ad", 9)).toBeNull();
  });

  test("picking inserts @username and a space, and the caret goes after it", () => {
    expect(insertMention("hi @ad", { start: 3, query: "ad" }, 6, "adam")).toEqual({ text: "hi @adam ", caret: 9 });
    expect(insertMention("hi @ad rest", { start: 3, query: "ad" }, 6, "ada")).toEqual({ text: "hi @ada rest", caret: 8 });
  });

  test("opens with results for the current query, arrows wrap, Escape closes until another @ is typed", () => {
    let state = autocompleteReducer(initialAutocomplete, { type: "typed", at: { start: 0, query: "ad" } });
    expect(isOpen(state)).toBe(false);
    // An answer to an older query is ignored.
    expect(autocompleteReducer(state, { type: "results", query: "a", options: [ada] })).toBe(state);
    state = autocompleteReducer(state, { type: "results", query: "ad", options: [ada, adam] });
    expect(isOpen(state)).toBe(true);
    expect(announcement(state)).toMatch(/^2 people match/);
    state = autocompleteReducer(state, { type: "move", by: 1 });
    expect(state.active).toBe(1);
    state = autocompleteReducer(state, { type: "move", by: 1 });
    expect(state.active).toBe(0);
    state = autocompleteReducer(state, { type: "move", by: -1 });
    expect(state.active).toBe(1);
    state = autocompleteReducer(state, { type: "dismiss" });
    expect(isOpen(state)).toBe(false);
    expect(announcement(state)).toBe("");
    // Typing on at the same @ keeps it closed; a new @ elsewhere opens again.
    state = autocompleteReducer(state, { type: "typed", at: { start: 0, query: "ada" } });
    expect(state.dismissed).toBe(0);
    state = autocompleteReducer(state, { type: "typed", at: { start: 9, query: "" } });
    expect(state.dismissed).toBeNull();
    state = autocompleteReducer(state, { type: "results", query: "", options: [ada] });
    expect(isOpen(state)).toBe(true);
    expect(autocompleteReducer(state, { type: "picked" })).toEqual(initialAutocomplete);
  });

  test("no matches: closed", () => {
    let state = autocompleteReducer(initialAutocomplete, { type: "typed", at: { start: 0, query: "zz" } });
    state = autocompleteReducer(state, { type: "results", query: "zz", options: [] });
    expect(isOpen(state)).toBe(false);
  });
});

// The post page's list of moments as a reducer: pages, live changes and the person's own actions
// applied by id (nothing twice), reactions one per person and emoji, and a refetch after a reconnect.
import { describe, expect, test } from "vitest";
import { currentMoment, initialMomentsState, momentsReducer, reactionCounts, type MomentsState } from "@/lib/moments/state";
import type { Moment } from "@/lib/moments/types";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const ada = { username: "ada", display_name: "Ada", avatar_path: null };
const moment = (n: number, at: number | null, extra: Partial<Moment> = {}): Moment => ({
  id: id(n),
  post_id: id(900),
  author_id: id(100),
  at_seconds: at,
  body: `comment ${n}`,
  created_at: "2026-11-24T10:00:00Z",
  updated_at: "2026-11-24T10:00:00Z",
  author: ada,
  reactions: [],
  ...extra,
});
const ids = (state: MomentsState) => state.items.map((m) => m.id);
/** The row alone, as the room's channel sends it (no author profile, no reactions). */
const rowOf = (m: Moment) => ({
  id: m.id,
  post_id: m.post_id,
  author_id: m.author_id,
  at_seconds: m.at_seconds,
  body: m.body,
  created_at: m.created_at,
  updated_at: m.updated_at,
});

describe("pages and order", () => {
  test("moments are kept by time, general comments last, ties by id", () => {
    const state = initialMomentsState([moment(3, null), moment(2, 10), moment(1, 10), moment(4, 1.5)], null);
    expect(ids(state)).toEqual([id(4), id(1), id(2), id(3)]);
  });

  test("a loaded page joins the list and moves the cursor; a moment already shown stays once", () => {
    let state = initialMomentsState([moment(1, 1), moment(2, 2)], { at: 2, id: id(2) });
    state = momentsReducer(state, { type: "page", moments: [moment(2, 2), moment(3, 3), moment(4, null)], next: null });
    expect(ids(state)).toEqual([id(1), id(2), id(3), id(4)]);
    expect(state.next).toBeNull();
  });
});

describe("live changes and own actions", () => {
  test("an insert seen twice (the action's answer, then its echo on the channel) shows once", () => {
    let state = initialMomentsState([moment(1, 5)], null);
    const mine = moment(2, 3, { body: "this drop!" });
    state = momentsReducer(state, { type: "upsert", moment: mine });
    state = momentsReducer(state, { type: "upsert", moment: rowOf(mine) });
    expect(ids(state)).toEqual([id(2), id(1)]);
    expect(state.items[0]).toMatchObject({ body: "this drop!", author: ada });
  });

  test("an update from the channel keeps the author and reactions, and moves the moment when its time changes", () => {
    const reaction = { id: id(50), emoji: "🔥", user_id: id(101) };
    let state = initialMomentsState([moment(1, 5, { reactions: [reaction] }), moment(2, 8)], null);
    state = momentsReducer(state, { type: "upsert", moment: rowOf(moment(1, 9, { body: "edited" })) });
    expect(ids(state)).toEqual([id(2), id(1)]);
    expect(state.items[1]).toMatchObject({ body: "edited", author: ada, reactions: [reaction] });
  });

  test("numeric times from the database become numbers", () => {
    const state = momentsReducer(initialMomentsState([], null), {
      type: "upsert",
      moment: { ...moment(1, null), at_seconds: "12.5" as unknown as number },
    });
    expect(state.items[0].at_seconds).toBe(12.5);
  });

  test("remove takes a moment out; removing one that is not there changes nothing", () => {
    const state = initialMomentsState([moment(1, 1), moment(2, 2)], null);
    const removed = momentsReducer(state, { type: "remove", id: id(1) });
    expect(ids(removed)).toEqual([id(2)]);
    expect(momentsReducer(removed, { type: "remove", id: id(1) })).toBe(removed);
  });
});

describe("reactions", () => {
  const me = id(101);
  test("an optimistic reaction is replaced by the stored one, and its echo adds nothing", () => {
    let state = initialMomentsState([moment(1, 1)], null);
    state = momentsReducer(state, { type: "reactionAdd", momentId: id(1), reaction: { id: "pending-1", emoji: "🔥", user_id: me } });
    state = momentsReducer(state, { type: "reactionAdd", momentId: id(1), reaction: { id: id(60), emoji: "🔥", user_id: me } });
    state = momentsReducer(state, { type: "reactionAdd", momentId: id(1), reaction: { id: id(60), emoji: "🔥", user_id: me } });
    expect(state.items[0].reactions).toEqual([{ id: id(60), emoji: "🔥", user_id: me }]);
  });

  test("counts per emoji, with the person's own marked", () => {
    let state = initialMomentsState([moment(1, 1)], null);
    for (const [n, emoji, user] of [
      [61, "🔥", me],
      [62, "🔥", id(102)],
      [63, "👏", id(102)],
    ] as const) {
      state = momentsReducer(state, { type: "reactionAdd", momentId: id(1), reaction: { id: id(n), emoji, user_id: user } });
    }
    expect(reactionCounts(state.items[0], me)).toEqual([
      { emoji: "🔥", count: 2, mine: true },
      { emoji: "👏", count: 1, mine: false },
    ]);
  });

  test("removal by the person (emoji) or from the channel (id); a late delete echo does not take a newer reaction", () => {
    let state = initialMomentsState([moment(1, 1, { reactions: [{ id: id(61), emoji: "🔥", user_id: me }] })], null);
    state = momentsReducer(state, { type: "reactionRemove", momentId: id(1), reaction: { user_id: me, emoji: "🔥" } });
    expect(state.items[0].reactions).toEqual([]);
    state = momentsReducer(state, { type: "reactionAdd", momentId: id(1), reaction: { id: "pending-2", emoji: "🔥", user_id: me } });
    state = momentsReducer(state, { type: "reactionRemove", momentId: id(1), reaction: { id: id(61) } });
    expect(state.items[0].reactions).toHaveLength(1);
  });

  test("a reaction on a moment not loaded is ignored", () => {
    const state = initialMomentsState([moment(1, 1)], null);
    expect(momentsReducer(state, { type: "reactionAdd", momentId: id(9), reaction: { id: id(70), emoji: "😂", user_id: me } })).toBe(state);
  });
});

describe("merging a refetched set", () => {
  test("up to the last loaded moment the refetch is the truth: deleted ones go, missed ones come, later ones stay", () => {
    const state = initialMomentsState([moment(1, 1), moment(2, 2), moment(3, 3), moment(9, 50)], { at: 3, id: id(3) });
    const merged = momentsReducer(state, {
      type: "merge",
      moments: [moment(1, 1, { body: "edited" }), moment(4, 2.5), moment(3, 3)],
      through: { at: 3, id: id(3) },
    });
    expect(ids(merged)).toEqual([id(1), id(4), id(3), id(9)]);
    expect(merged.items[0].body).toBe("edited");
    expect(merged.next).toEqual({ at: 3, id: id(3) });
  });

  test("with everything loaded (through null) the refetched set replaces the list", () => {
    const state = initialMomentsState([moment(1, 1), moment(2, null)], null);
    expect(ids(momentsReducer(state, { type: "merge", moments: [moment(2, null), moment(5, 4)], through: null }))).toEqual([id(5), id(2)]);
  });
});

test("the current moment is the last at or before the playback time; general comments never", () => {
  const items = initialMomentsState([moment(1, 1), moment(2, 5), moment(3, 5), moment(4, 9), moment(5, null)], null).items;
  expect(currentMoment(items, 0.5)).toBeNull();
  expect(currentMoment(items, 1)?.id).toBe(id(1));
  expect(currentMoment(items, 7)?.id).toBe(id(3));
  expect(currentMoment(items, 1000)?.id).toBe(id(4));
  expect(currentMoment([moment(5, null)], 10)).toBeNull();
});

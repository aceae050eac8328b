// Replies in the post page's reducer: kept under their comment (never in the list or on the
// timeline), oldest first, collapsed after three, live inserts under their parent, a deleted comment
// standing as a placeholder over its replies until the last one goes.
import { describe, expect, test } from "vitest";
import {
  currentMoment,
  findMoment,
  initialMomentsState,
  moreRepliesLabel,
  momentsReducer,
  visibleReplies,
  type MomentsState,
} from "@/lib/moments/state";
import type { Moment, MomentWithReplies } from "@/lib/moments/types";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const ada = { username: "ada", display_name: "Ada", avatar_path: null };
const minute = (n: number) => `2026-11-24T10:${String(n).padStart(2, "0")}:00Z`;
const moment = (n: number, at: number | null, extra: Partial<Moment> = {}): Moment => ({
  id: id(n),
  post_id: id(900),
  author_id: id(100),
  at_seconds: at,
  body: `comment ${n}`,
  created_at: minute(n % 60),
  updated_at: minute(n % 60),
  author: ada,
  reactions: [],
  parent_id: null,
  deleted_at: null,
  ...extra,
});
const reply = (n: number, parent: number, extra: Partial<Moment> = {}) => moment(n, 10, { parent_id: id(parent), ...extra });
const ids = (list: readonly Moment[]) => list.map((m) => m.id);
const repliesOf = (state: MomentsState, n: number) => ids(state.replies[id(n)] ?? []);

describe("threads", () => {
  test("a page's embedded replies sit under their comment, oldest first; the list holds comments only", () => {
    const withReplies: MomentWithReplies = { ...moment(1, 10), replies: [reply(13, 1), reply(11, 1), reply(12, 1)] };
    const state = initialMomentsState([withReplies, moment(2, 20)], null);
    expect(ids(state.items)).toEqual([id(1), id(2)]);
    expect(repliesOf(state, 1)).toEqual([id(11), id(12), id(13)]);
    expect(state.items[0]).not.toHaveProperty("replies");
    // Playback at the comment's time finds the comment, never a reply (they share its time).
    expect(currentMoment(state.items, 15)?.id).toBe(id(1));
  });

  test("a reply arriving live goes under its parent, not into the list; seen twice it shows once", () => {
    let state = initialMomentsState([moment(1, 10)], null);
    const row = { ...reply(20, 1), author: undefined, reactions: undefined };
    state = momentsReducer(state, { type: "upsert", moment: row });
    state = momentsReducer(state, { type: "upsert", moment: reply(20, 1) });
    expect(ids(state.items)).toEqual([id(1)]);
    expect(repliesOf(state, 1)).toEqual([id(20)]);
    expect(findMoment(state, id(20))?.author).toEqual(ada);
  });

  test("collapsed after three: the oldest three show and the rest is counted", () => {
    const replies = Array.from({ length: 15 }, (_, i) => reply(10 + i, 1));
    const { shown, more } = visibleReplies(replies, false);
    expect(ids(shown)).toEqual(ids(replies.slice(0, 3)));
    expect(more).toBe(12);
    expect(moreRepliesLabel(more)).toBe("Show 12 more replies");
    expect(moreRepliesLabel(1)).toBe("Show 1 more reply");
    expect(visibleReplies(replies, true)).toEqual({ shown: replies, more: 0 });
    expect(visibleReplies(replies.slice(0, 3), false).more).toBe(0);
  });

  test("a comment deleted over its replies keeps its place emptied: no words, reactions or mentions", () => {
    const reacted = moment(1, 10, {
      reactions: [{ id: id(50), emoji: "🔥", user_id: id(100) }],
      mentions: [{ user_id: id(101), handle: "bob", person: { username: "bob" } }],
    });
    let state = initialMomentsState([{ ...reacted, replies: [reply(11, 1)] }], null);
    // The channel's UPDATE of the emptied row.
    state = momentsReducer(state, {
      type: "upsert",
      moment: { ...reacted, body: "", deleted_at: minute(30), author: undefined, reactions: undefined, mentions: undefined },
    });
    const placeholder = state.items[0];
    expect(placeholder.deleted_at).toBe(minute(30));
    expect(placeholder.body).toBe("");
    expect(placeholder.reactions).toEqual([]);
    expect(placeholder.mentions).toEqual([]);
    expect(repliesOf(state, 1)).toEqual([id(11)]);
  });

  test("the last reply's removal under a deleted comment removes the comment too; not under a live one", () => {
    let state = initialMomentsState(
      [
        { ...moment(1, 10, { body: "", deleted_at: minute(30) }), replies: [reply(11, 1), reply(12, 1)] },
        { ...moment(2, 20), replies: [reply(21, 2)] },
      ],
      null,
    );
    state = momentsReducer(state, { type: "remove", id: id(11) });
    expect(ids(state.items)).toEqual([id(1), id(2)]);
    state = momentsReducer(state, { type: "remove", id: id(12) });
    expect(ids(state.items)).toEqual([id(2)]);
    expect(state.replies[id(1)]).toBeUndefined();
    state = momentsReducer(state, { type: "remove", id: id(21) });
    expect(ids(state.items)).toEqual([id(2)]);
    expect(repliesOf(state, 2)).toEqual([]);
  });

  test("removing a comment takes its replies; reactions reach replies too", () => {
    let state = initialMomentsState([{ ...moment(1, 10), replies: [reply(11, 1)] }], null);
    state = momentsReducer(state, { type: "reactionAdd", momentId: id(11), reaction: { id: id(60), emoji: "👏", user_id: id(100) } });
    expect(findMoment(state, id(11))?.reactions).toHaveLength(1);
    state = momentsReducer(state, { type: "reactionRemove", momentId: id(11), reaction: { id: id(60) } });
    expect(findMoment(state, id(11))?.reactions).toHaveLength(0);
    state = momentsReducer(state, { type: "remove", id: id(1) });
    expect(state.items).toEqual([]);
    expect(findMoment(state, id(11))).toBeUndefined();
  });

  test("a refetch replaces the threads under the comments it covers and keeps the others", () => {
    let state = initialMomentsState([{ ...moment(1, 10), replies: [reply(11, 1), reply(12, 1)] }, moment(2, 20)], null);
    state = momentsReducer(state, { type: "upsert", moment: reply(22, 2) });
    state = momentsReducer(state, {
      type: "merge",
      moments: [{ ...moment(1, 10), replies: [reply(12, 1)] }],
      through: { at: 10, id: id(1) },
    });
    expect(repliesOf(state, 1)).toEqual([id(12)]);
    expect(repliesOf(state, 2)).toEqual([id(22)]);
  });

  test("an edit keeps what is known of the mentions only while the words stay the same", () => {
    const mentions = [{ user_id: id(101), handle: "bob", person: { username: "bob" } }];
    let state = initialMomentsState([moment(1, 10, { body: "hi @bob", mentions })], null);
    state = momentsReducer(state, { type: "upsert", moment: { ...moment(1, 10, { body: "hi @bob" }), mentions: undefined } });
    expect(state.items[0].mentions).toEqual(mentions);
    state = momentsReducer(state, { type: "upsert", moment: { ...moment(1, 10, { body: "hi @carol" }), mentions: undefined } });
    expect(state.items[0].mentions).toBeUndefined();
  });
});

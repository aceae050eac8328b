import type { SupabaseClient } from "@supabase/supabase-js";
import { expect, test } from "vitest";
import { cappedCount, getMyRooms, newSinceText } from "../../lib/home/queries";
import type { Database } from "../../types/database";

// The home page's words for what is new, and how a row of my_rooms becomes a room on the page
// (who is here comes as jsonb: anything that is not a person is dropped, never shown).

test("what is new since the last visit, in words; counts that reached the cap say 99+", () => {
  expect(newSinceText({ newPosts: 0, newComments: 0 })).toBeNull();
  expect(newSinceText({ newPosts: 1, newComments: 0 })).toBe("1 new post");
  expect(newSinceText({ newPosts: 0, newComments: 1 })).toBe("1 new comment");
  expect(newSinceText({ newPosts: 2, newComments: 5 })).toBe("2 new posts · 5 new comments");
  expect(newSinceText({ newPosts: 100, newComments: 1200 })).toBe("99+ new posts · 99+ new comments");
  expect(cappedCount(99)).toBe("99");
  expect(cappedCount(100)).toBe("99+");
});

const row = {
  room_id: "r1",
  slug: "late-night",
  name: "Late Night",
  cover_path: null,
  visibility: "gated",
  member_count: 3,
  role: "superuser",
  current: false,
  last_visit_at: null,
  new_posts: null,
  new_comments: null,
  last_activity_at: null,
  live_session_id: null,
  live_listeners: null,
  here_count: 2,
  here: [{ username: "ada", display_name: "Ada", avatar_path: null }, { username: 7 }, "x", null],
};

function clientAnswering(data: unknown, error: unknown = null): SupabaseClient<Database> {
  return { rpc: async () => ({ data, error }) } as unknown as SupabaseClient<Database>;
}

test("a row becomes a room: an unknown role reads as member, a lapsed room has nothing new, only real people are here", async () => {
  const result = await getMyRooms(clientAnswering([row]));
  expect(result).toEqual({
    ok: true,
    data: [
      {
        id: "r1",
        slug: "late-night",
        name: "Late Night",
        coverPath: null,
        gated: true,
        memberCount: 3,
        role: "member",
        current: false,
        newPosts: 0,
        newComments: 0,
        lastActivityAt: null,
        live: null,
        hereCount: 2,
        here: [{ username: "ada", displayName: "Ada", avatarPath: null }],
      },
    ],
  });
});

test("a failed read is said in words", async () => {
  expect(await getMyRooms(clientAnswering(null, { message: "boom" }))).toEqual({
    ok: false,
    error: "We couldn't load this part of the page — reload in a moment.",
  });
});

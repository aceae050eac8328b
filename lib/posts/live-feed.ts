import type { Tables } from "@/types/database";
import type { Post } from "./queries";
import { readStoredEmbed } from "./stored-embed";

/**
 * A room's feed as the page holds it while changes arrive live: the server's page, then inserts,
 * edits and deletes from the room's channel, and what a resync fetched after a gap — merged by id,
 * so nothing shows twice, in feed order (newest first; ties by id). A deleted post never comes back
 * (a late or stale copy of it is ignored), and an older version never replaces a newer one.
 */

export type PostAuthor = NonNullable<Post["author"]>;

export interface FeedState {
  posts: Post[];
  /** Deleted posts seen by this page: ids are never reused, so this holds for good. */
  gone: ReadonlySet<string>;
  /** Profiles of authors of posts that arrived without one (a broadcast carries only the row). */
  authors: Readonly<Record<string, PostAuthor>>;
  /** On the first page new posts join the list; on older pages only what is shown changes. */
  acceptsNew: boolean;
  /** Comments this page has counted live (added or taken away), each once. */
  counted: ReadonlySet<string>;
}

export type FeedAction =
  /** The server's page (first render, or a re-render after an action). */
  | { type: "snapshot"; posts: Post[] }
  | { type: "upsert"; post: Post }
  | { type: "remove"; id: string }
  /** A resync: `shown` were asked for by id and `found` is what exists of them; `fresh` are newer posts. */
  | { type: "resync"; shown: string[]; found: Post[]; fresh: Post[] }
  | { type: "authors"; authors: Record<string, PostAuthor> }
  /** A comment was added to (or deleted from) a post shown: its count moves by one. */
  | { type: "comment"; postId: string; commentId: string; createdAt: string | null; added: boolean };

export function initialFeed(posts: Post[], acceptsNew: boolean): FeedState {
  return { posts: sortFeed(dedupe(posts)), gone: new Set(), authors: {}, acceptsNew, counted: new Set() };
}

const time = (iso: string) => Date.parse(iso) || 0;

/** Feed order: newest first, then by id (as the server pages it: created_at desc, id desc). */
export function compareFeed(a: Pick<Post, "created_at" | "id">, b: Pick<Post, "created_at" | "id">): number {
  return time(b.created_at) - time(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

const sortFeed = (posts: Post[]) => [...posts].sort(compareFeed);

function dedupe(posts: Post[]): Post[] {
  const byId = new Map<string, Post>();
  for (const post of posts) {
    const seen = byId.get(post.id);
    if (!seen || !isOlder(post, seen)) byId.set(post.id, post);
  }
  return [...byId.values()];
}

/** Is `a` an older version of the same post than `b`? */
const isOlder = (a: Pick<Post, "updated_at">, b: Pick<Post, "updated_at">) => time(a.updated_at) < time(b.updated_at);

/** Merges `incoming` into `posts`: new ids join (if `addNew`), newer versions replace, the author and activity are kept. */
function merge(posts: Post[], incoming: Post[], gone: ReadonlySet<string>, addNew: boolean): Post[] {
  const byId = new Map(posts.map((post) => [post.id, post]));
  let changed = false;
  for (const post of incoming) {
    if (gone.has(post.id)) continue;
    const seen = byId.get(post.id);
    if (seen ? isOlder(post, seen) : !addNew) continue;
    byId.set(post.id, {
      ...post,
      author: post.author ?? (seen?.author_id === post.author_id ? seen.author : null),
      // A row from the channel carries no activity: the count shown stays.
      activity: post.activity ?? seen?.activity ?? null,
    });
    changed = true;
  }
  return changed ? sortFeed([...byId.values()]) : posts;
}

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case "snapshot": {
      // The server's page is the truth for its window: a post shown within it that the page lacks
      // was deleted. Posts newer than the page (arrived live since it rendered) and older ones
      // (the list grew past a page) stay.
      const ids = new Set(action.posts.map((post) => post.id));
      const newest = action.posts[0];
      const oldest = action.posts.at(-1);
      const gone = new Set(state.gone);
      const kept = state.posts.filter((post) => {
        if (ids.has(post.id) || !newest || !oldest) return true;
        const within = compareFeed(post, newest) >= 0 && compareFeed(post, oldest) <= 0;
        if (within) gone.add(post.id);
        return !within;
      });
      return { ...state, gone, posts: merge(kept, action.posts, gone, true) };
    }
    case "upsert": {
      const posts = merge(state.posts, [action.post], state.gone, state.acceptsNew);
      return posts === state.posts ? state : { ...state, posts };
    }
    case "remove": {
      const gone = new Set(state.gone).add(action.id);
      return { ...state, gone, posts: state.posts.filter((post) => post.id !== action.id) };
    }
    case "resync": {
      const found = new Set(action.found.map((post) => post.id));
      const gone = new Set(state.gone);
      for (const id of action.shown) if (!found.has(id)) gone.add(id);
      const kept = state.posts.filter((post) => !gone.has(post.id));
      return { ...state, gone, posts: merge(merge(kept, action.found, gone, false), action.fresh, gone, state.acceptsNew) };
    }
    case "authors":
      return { ...state, authors: { ...state.authors, ...action.authors } };
    case "comment": {
      const key = `${action.added ? "+" : "-"}${action.commentId}`;
      const post = state.posts.find((shown) => shown.id === action.postId);
      if (!post || state.counted.has(key)) return state;
      const counted = new Set(state.counted).add(key);
      // A comment older than the activity the server counted is in its count already.
      const since = post.activity?.last_activity_at ?? post.created_at;
      if (action.added && action.createdAt !== null && time(action.createdAt) <= time(since)) return { ...state, counted };
      const count = post.activity?.comment_count ?? 0;
      const activity = action.added
        ? { comment_count: count + 1, last_activity_at: action.createdAt ?? since }
        : { comment_count: Math.max(count - 1, 0), last_activity_at: since };
      return { ...state, counted, posts: state.posts.map((shown) => (shown === post ? { ...post, activity } : shown)) };
    }
  }
}

/** A post row as the room's channel sends it (no author, no search words), shaped as the feed shows posts. */
export function postFromRow(row: Omit<Tables<"posts">, "search_document">): Post {
  return { ...row, embed: readStoredEmbed(row.embed), author: null, activity: null };
}

/** Authors the page has no profile for yet (each asked for once: `asked` remembers). */
export function unknownAuthors(state: FeedState, asked: ReadonlySet<string>): string[] {
  const missing = new Set<string>();
  for (const post of state.posts)
    if (!post.author && !state.authors[post.author_id] && !asked.has(post.author_id)) missing.add(post.author_id);
  return [...missing];
}

/** The post as the card shows it: its author from the post, or from the profiles fetched since. */
export function withAuthor(post: Post, authors: Readonly<Record<string, PostAuthor>>): Post {
  return post.author ? post : { ...post, author: authors[post.author_id] ?? null };
}

/** Where a resync starts: the newest post shown (the page asks for anything created since, with a margin). */
export function newestCreatedAt(state: FeedState): string | null {
  return state.posts[0]?.created_at ?? null;
}

// What a link preview says of a room, a post or a comment: the words of its Open Graph tags and of
// its picture, decided from what anyone on the internet may read. Pure: lib/previews/queries.ts
// reads the rows, this builds the words.
import { formatMomentTime } from "@/lib/moments/time";
import { clip, contentVersion, drawableText, oneLine } from "./text";

type PreviewKind = "room" | "post" | "moment" | "members-only";

/** What the picture shows; every text is already clipped and drawable by its font. */
export interface PreviewCard {
  kind: PreviewKind;
  /** The room's name, always. */
  room: string;
  /** The big words: a post's title, or the room's name on a room's own card. */
  title: string;
  /** A comment's words (moment), or a gate's requirement (members only); shown quoted or small. */
  quote: string | null;
  /** A comment's time in its post, "1:42"; null for anything else or a comment on the whole post. */
  at: string | null;
  /** One quiet line: a room's description, a post's author, a comment's author. */
  detail: string | null;
  /** Pictures to show beside the words, the first that loads: an allow-listed thumbnail, then the room's cover; fetched at render time. */
  pictures: string[];
}

/** Everything a page's metadata and its picture need. */
export interface Preview {
  card: PreviewCard;
  /** og:title */
  title: string;
  /** og:description */
  description: string;
  /** The page this describes, e.g. /r/lofi/p/<id> (og:url is this on the site's origin). */
  path: string;
  /** The picture's route, without its version. */
  imagePath: string;
  /** The picture's alt text. */
  alt: string;
  /** Changes whenever anything the picture shows changes: the picture's URL carries it. */
  version: string;
}

export interface RoomFacts {
  slug: string;
  name: string;
  description: string;
  /** The cover's public URL, or null. */
  cover: string | null;
  /** For a gated room: who may join in words ("Holders of at least 1 CUEPASS on Local chain"); null when public. */
  gate: string | null;
}

export interface PostFacts {
  id: string;
  title: string;
  author: string | null;
  /** The provider's thumbnail, when it is on a host we fetch from; null otherwise. */
  thumbnail: string | null;
}

export interface MomentFacts {
  id: string;
  body: string;
  author: string | null;
  atSeconds: number | null;
}

/** The words' sizes: what chats show of og:description, and what the picture has room for. */
const limits = { title: 70, pictureTitle: 80, room: 40, quote: 140, detail: 90, description: 200 } as const;

const membersOnlyWords = "Members only";

function finish(card: PreviewCard, meta: Omit<Preview, "card" | "version">): Preview {
  return {
    card,
    ...meta,
    version: contentVersion([card.kind, card.room, card.title, card.quote, card.at, card.detail, ...card.pictures]),
  };
}

const listed = (...urls: (string | null)[]) => urls.filter((url): url is string => url !== null);

const drawn = (text: string | null | undefined, max: number) => {
  const words = text ? clip(drawableText(text), max) : "";
  return words === "" ? null : words;
};

/** A room's own preview; for a gated room, its name, its gate and "members only", nothing else of it. */
export function roomPreview(room: RoomFacts, path = `/r/${room.slug}`): Preview {
  const name = drawn(room.name, limits.room) ?? "A room on Cuepoint";
  if (room.gate !== null) {
    const description = `${membersOnlyWords}. ${oneLine(room.gate)}. Members share and talk about music and video on Cuepoint.`;
    return finish(
      {
        kind: "members-only",
        room: name,
        title: name,
        quote: drawn(room.gate, limits.detail),
        at: null,
        detail: null,
        pictures: listed(room.cover),
      },
      {
        title: `${clip(oneLine(room.name), limits.title)} · ${membersOnlyWords}`,
        description: clip(description, limits.description),
        path,
        imagePath: `/og/r/${room.slug}`,
        alt: `${room.name}: a members-only room on Cuepoint. ${room.gate}.`,
      },
    );
  }
  const about = oneLine(room.description);
  return finish(
    { kind: "room", room: name, title: name, quote: null, at: null, detail: drawn(about, limits.detail), pictures: listed(room.cover) },
    {
      title: clip(oneLine(room.name), limits.title),
      description: clip(about || "A room on Cuepoint: share music and video and talk about the moments in them.", limits.description),
      path,
      imagePath: `/og/r/${room.slug}`,
      alt: `${room.name}, a room on Cuepoint${about ? `: ${clip(about, limits.detail)}` : ""}`,
    },
  );
}

/** A public room's post. */
export function postPreview(room: RoomFacts, post: PostFacts): Preview {
  const path = `/r/${room.slug}/p/${post.id}`;
  const title = drawn(post.title, limits.pictureTitle) ?? "A post";
  const by = post.author ? `Shared by ${oneLine(post.author)}` : null;
  return finish(
    {
      kind: "post",
      room: drawn(room.name, limits.room) ?? "A room on Cuepoint",
      title,
      quote: null,
      at: null,
      detail: drawn(by, limits.detail),
      pictures: listed(post.thumbnail, room.cover),
    },
    {
      title: clip(oneLine(post.title), limits.title),
      description: clip(
        `${by ? `${by} in` : "In"} ${oneLine(room.name)} on Cuepoint. Listen and talk about its moments.`,
        limits.description,
      ),
      path,
      imagePath: `/og/r/${room.slug}/p/${post.id}`,
      alt: `${post.title}, a post in ${room.name} on Cuepoint`,
    },
  );
}

/** A comment on a public post: its words, its time, the post and the room. */
export function momentPreview(room: RoomFacts, post: PostFacts, moment: MomentFacts): Preview {
  const at = moment.atSeconds === null ? null : formatMomentTime(moment.atSeconds);
  const words = oneLine(moment.body);
  const who = moment.author ? oneLine(moment.author) : "Someone";
  const lead = `${who} ${at ? `at ${at} of` : "on"}`;
  // The post's title is clipped inside its quotes, so they stay paired.
  const heading = `${lead} “${clip(oneLine(post.title), Math.max(24, limits.title - Array.from(lead).length - 3))}”`;
  return finish(
    {
      kind: "moment",
      room: drawn(room.name, limits.room) ?? "A room on Cuepoint",
      title: drawn(post.title, limits.title) ?? "A post",
      // An emoji-only comment still says something: its author commented.
      quote: drawn(words, limits.quote) ?? "…",
      at,
      detail: drawn(who, limits.detail),
      pictures: listed(post.thumbnail, room.cover),
    },
    {
      title: heading,
      // The words are clipped inside their quotes, so the room is always named.
      description: clip(`“${clip(words, limits.quote)}” — in ${oneLine(room.name)} on Cuepoint`, limits.description),
      path: `/m/${moment.id}`,
      imagePath: `/og/m/${moment.id}`,
      alt: `${who}'s comment${at ? ` at ${at}` : ""} on ${post.title}, in ${room.name} on Cuepoint: ${clip(words, limits.quote)}`,
    },
  );
}

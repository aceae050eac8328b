// The live ticker of a session: the playing post's comments pop up as playback passes their time,
// and a comment just made pops up at once (everyone is at that second). Pure: the component feeds
// it the position a few times a second.
import type { Moment } from "@/lib/moments/types";

/** A jump further than this between two looks is a seek: what it skipped does not pop. */
const maxStepSeconds = 2;
/** A comment that arrives stamped at most this far behind the position (or a little ahead) pops at once. */
const arrivalWindowSeconds = 10;
const arrivalLeadSeconds = 1;
/** How long a comment stays up, and how many at once. */
export const shownMs = 6_000;
export const maxShown = 3;

export interface TickerItem {
  moment: Moment;
  until: number;
}

export interface TickerState {
  postId: string | null;
  /** The position at the last look (null before the first). */
  position: number | null;
  /** Ids of the comments known at the last look (new ones are arrivals). */
  known: ReadonlySet<string>;
  shown: TickerItem[];
}

export const initialTicker: TickerState = { postId: null, position: null, known: new Set(), shown: [] };

export interface TickerInput {
  postId: string | null;
  /** The player's position now (seconds), or null when nothing plays. */
  position: number | null;
  /** The playing post's comments (others are ignored). */
  moments: readonly Moment[];
  /**
   * Ids of comments that arrived while the page was open (made here or received live). At a first
   * look they are still news: a comment made before the post's history was read pops all the same.
   */
  arrived?: ReadonlySet<string>;
  now: number;
}

/** Comments whose time playback passed going from `from` to `to` (none on a seek or a step back). */
export function passedMoments(moments: readonly Moment[], from: number | null, to: number): Moment[] {
  if (from === null || to <= from || to - from > maxStepSeconds) return [];
  return moments.filter((moment) => moment.at_seconds !== null && moment.at_seconds > from && moment.at_seconds <= to);
}

const arrivedNow = (moment: Moment, position: number) =>
  moment.at_seconds !== null && moment.at_seconds >= position - arrivalWindowSeconds && moment.at_seconds <= position + arrivalLeadSeconds;

/** One look at the player: what pops, what stays, what goes. */
export function tickerStep(state: TickerState, input: TickerInput): TickerState {
  const moments = input.moments.filter((moment) => moment.post_id === input.postId);
  const known = new Set(moments.map((moment) => moment.id));
  // Another post (or the first look): what it already had is not news; what arrived live still is.
  if (input.postId !== state.postId || input.position === null) {
    const history = input.arrived ? new Set([...known].filter((id) => !input.arrived!.has(id))) : known;
    return {
      postId: input.postId,
      position: input.position,
      known: history,
      shown: input.postId === state.postId ? expire(state.shown, input.now) : [],
    };
  }
  const position = input.position;
  const popped = [
    ...passedMoments(moments, state.position, position),
    ...moments.filter((moment) => !state.known.has(moment.id) && arrivedNow(moment, position)),
  ];
  let shown = expire(state.shown, input.now);
  for (const moment of popped) {
    shown = [...shown.filter((item) => item.moment.id !== moment.id), { moment, until: input.now + shownMs }];
  }
  // A comment edited or deleted meanwhile shows as it is now (or goes).
  const current = new Map(moments.map((moment) => [moment.id, moment]));
  shown = shown.flatMap((item) => {
    const moment = current.get(item.moment.id);
    return moment ? [moment === item.moment ? item : { ...item, moment }] : [];
  });
  return { postId: input.postId, position, known, shown: shown.slice(-maxShown) };
}

const expire = (shown: TickerItem[], now: number) => shown.filter((item) => item.until > now);

/** Whether two states show the same comments (the component re-renders only when they differ). */
export const sameShown = (a: TickerState, b: TickerState): boolean =>
  a.shown.length === b.shown.length &&
  a.shown.every((item, index) => item.moment === b.shown[index].moment && item.until === b.shown[index].until);

// A comment being written "at 1:42", as a pure reducer shared by the post page's composer and the
// listening session's: the text, where it is stamped, the errors next to the fields, the pending
// send and what was posted. Nothing here drops what was typed: only a posted comment clears the text.
import type { momentAtSchema } from "@/lib/validation/moment";
import { momentMessages } from "./rules";
import { formatMomentTime, parseMomentTime } from "./time";

/**
 * Where a comment is stamped: on a post, at a time captured from playback when typing began (seconds),
 * or typed by the person (text, read when sent: seconds null).
 */
export interface MomentStamp {
  postId: string;
  seconds: number | null;
  text: string;
}

/** The fields a composer shows errors next to. */
export type ComposerField = "body" | "atSeconds";
export type ComposerErrors = Partial<Record<ComposerField, string>>;

export interface ComposerState {
  body: string;
  /** null: the comment follows playback (it is stamped when sent). */
  stamp: MomentStamp | null;
  errors: ComposerErrors;
  /** A problem that is no field's (the server's answer, nothing playing). */
  formError: string | null;
  pending: boolean;
  /** Said once a comment is posted, until the person types again or sends another. */
  posted: string | null;
}

export const initialComposerState: ComposerState = { body: "", stamp: null, errors: {}, formError: null, pending: false, posted: null };

export type ComposerAction =
  /** The person typed; `stamp` when typing began here. */
  | { type: "edit"; body: string; stamp?: MomentStamp | null }
  | { type: "stamp"; stamp: MomentStamp | null }
  | { type: "submit" }
  /** The browser's own check of what is about to be sent. */
  | { type: "checked"; errors: ComposerErrors; formError: string | null }
  | { type: "send" }
  /** The server refused: its field errors next to the fields this composer shows, else its words for the form. */
  | { type: "refused"; error: string; errors?: Partial<Record<string, string>>; fields: readonly ComposerField[] }
  | { type: "posted"; notice: string };

export function composerReducer(state: ComposerState, action: ComposerAction): ComposerState {
  switch (action.type) {
    case "edit":
      return { ...state, body: action.body, stamp: action.stamp === undefined ? state.stamp : action.stamp, posted: null };
    case "stamp":
      return { ...state, stamp: action.stamp };
    case "submit":
      return { ...state, formError: null, posted: null };
    case "checked":
      return { ...state, errors: action.errors, formError: action.formError };
    case "send":
      return { ...state, pending: true };
    case "refused": {
      const errors: ComposerErrors = {};
      for (const field of action.fields) if (action.errors?.[field]) errors[field] = action.errors[field];
      return { ...state, pending: false, errors, formError: Object.keys(errors).length ? null : action.error };
    }
    case "posted":
      return { ...state, pending: false, body: "", stamp: null, posted: action.notice };
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** The stamp of playback's position on this post (never past its end, to the millisecond); null when nothing plays. */
export function stampAt(post: { id: string; durationSeconds: number | null } | null, position: number | null): MomentStamp | null {
  if (!post || position === null) return null;
  const seconds = round(post.durationSeconds === null ? position : Math.min(position, post.durationSeconds));
  return { postId: post.id, seconds, text: formatMomentTime(seconds) };
}

/** Where a comment goes, checked: its post and time (null: a general comment), or why not (next to the time, or for the form). */
export type Placement = { ok: true; postId: string; atSeconds: number | null } | { ok: false; field?: "atSeconds"; error: string };

/** A stamp's time checked as the server checks it (`atSchema` once loaded), and against the media's length. */
export function placeStamp(stamp: MomentStamp, duration: number | null, atSchema: typeof momentAtSchema | null): Placement {
  const seconds = stamp.seconds ?? parseMomentTime(stamp.text);
  if (seconds === null) return { ok: false, field: "atSeconds", error: momentMessages.atInvalid };
  const parsed = atSchema?.safeParse(seconds);
  if (parsed && !parsed.success) return { ok: false, field: "atSeconds", error: parsed.error.issues[0].message };
  if (duration !== null && seconds > duration) return { ok: false, field: "atSeconds", error: momentMessages.atPastEnd };
  return { ok: true, postId: stamp.postId, atSeconds: seconds };
}

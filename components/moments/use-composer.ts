import { type FormEvent, useReducer } from "react";
import { createMoment } from "@/lib/moments/actions";
import {
  type ComposerField,
  composerReducer,
  initialComposerState,
  type MomentStamp,
  type Placement,
  stampAt,
} from "@/lib/moments/composer-state";
import { loadMomentSchemas } from "@/lib/moments/schemas";
import type { Moment } from "@/lib/moments/types";

type MomentSchemas = Awaited<ReturnType<typeof loadMomentSchemas>>;

const unreachable = "We couldn't reach the server — check your connection and try again.";

export interface ComposerOptions {
  /** The post comments go to now, with its media's length (null: not known); null when nothing plays. */
  post: { id: string; durationSeconds: number | null } | null;
  /** Playback's position now, in seconds; null when nothing plays. */
  getPosition: () => number | null;
  /** Made during this listening session. */
  sessionId?: string;
  /** Whether a keystroke into this text stamps the comment, when it is not stamped on the playing post yet (default: always). */
  stampsWhenTyping?: (bodyBefore: string) => boolean;
  /** Where the comment goes, checked, from its stamp (null: playback's position could not be taken). */
  place: (stamp: MomentStamp | null, schemas: MomentSchemas) => Placement;
  /** The fields the form shows errors next to; the server's other refusals are said for the form. */
  fields: readonly ComposerField[];
  /** What is said once posted. */
  notice: (atSeconds: number | null) => string;
  onPosted: (moment: Moment) => void;
  /** The server refused the comment (a timeout, slow mode, …): the form may ask why again. */
  onRefused?: () => void;
}

/**
 * What the post page's and the session's "Comment at 1:42" forms share: the text, its stamp (taken
 * from playback when typing begins; one on a post that no longer plays is forgotten, the text stays),
 * the check before sending (the schemas load on the form's first focus), the send with its pending
 * state, and errors that keep what was typed.
 */
export function useComposer({
  post,
  getPosition,
  sessionId,
  stampsWhenTyping = () => true,
  place,
  fields,
  notice,
  onPosted,
  onRefused,
}: ComposerOptions) {
  const [state, dispatch] = useReducer(composerReducer, initialComposerState);
  const { body } = state;
  const stamp = state.stamp && post && state.stamp.postId === post.id ? state.stamp : null;
  const capture = () => stampAt(post, getPosition());

  const edit = (value: string) =>
    dispatch({ type: "edit", body: value, ...(!stamp && stampsWhenTyping(body) ? { stamp: capture() } : {}) });
  const setStamp = (next: MomentStamp | null) => dispatch({ type: "stamp", stamp: next });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    dispatch({ type: "submit" });
    const schemas = await loadMomentSchemas();
    const bodyCheck = schemas?.momentBodySchema.safeParse(body);
    const bodyError = bodyCheck && !bodyCheck.success ? bodyCheck.error.issues[0].message : undefined;
    const placed = place(stamp ?? capture(), schemas);
    const atError = !placed.ok && placed.field ? placed.error : undefined;
    dispatch({
      type: "checked",
      errors: { body: bodyError, atSeconds: atError },
      formError: !bodyError && !placed.ok && !placed.field ? placed.error : null,
    });
    if (bodyError || !placed.ok) return;

    dispatch({ type: "send" });
    const { postId, atSeconds } = placed;
    const answer = await createMoment(sessionId ? { postId, atSeconds, body, sessionId } : { postId, atSeconds, body }).catch(() => ({
      ok: false as const,
      error: unreachable,
      errors: undefined,
    }));
    if (!answer.ok) {
      onRefused?.();
      return dispatch({ type: "refused", error: answer.error, errors: answer.errors, fields });
    }
    onPosted(answer.data);
    dispatch({ type: "posted", notice: notice(atSeconds) });
  }

  return { ...state, stamp, capture, edit, setStamp, submit, loadSchemas: () => void loadMomentSchemas() };
}

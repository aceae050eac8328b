// "Comment here" from anywhere on the page (the C shortcut): the page's comment form registers what
// it does — take the playing time and put the focus in its text — and a shortcut asks for it.

type CommentHere = () => string;

let current: CommentHere | null = null;

/** The form on the page registers itself; the returned function unregisters it. */
export function registerCommentHere(commentHere: CommentHere): () => void {
  current = commentHere;
  return () => {
    if (current === commentHere) current = null;
  };
}

/** Starts a comment at the playing time and answers what a screen reader hears; null when the page has no comment form. */
export function commentHere(): string | null {
  return current ? current() : null;
}

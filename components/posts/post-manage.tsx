"use client";

import { useRouter } from "next/navigation";
import { useActionState, useState } from "react";
import { deletePost, updatePost } from "@/lib/posts/actions";
import type { EditPostState } from "@/lib/posts/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/field";

/** The author's edit form (title and text). */
function EditPostForm({
  target,
  initial,
  onDone,
}: {
  target: { id: string; slug: string };
  initial: EditPostState["values"];
  onDone: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [state, action, pending] = useActionState(
    async (previous: EditPostState, formData: FormData) => {
      const answer = await updatePost(target, previous, formData);
      if (answer.status === "saved") onDone();
      return answer;
    },
    { status: "idle", values: initial, errors: {} } satisfies EditPostState,
  );
  return (
    <form action={action} noValidate aria-label="Edit post" className="flex flex-col gap-4">
      <TextField
        id="title"
        label="Title"
        value={values.title}
        onChange={(event) => setValues({ ...values, title: event.target.value })}
        error={state.errors.title}
      />
      <TextAreaField
        id="body"
        label="Text"
        value={values.body}
        onChange={(event) => setValues({ ...values, body: event.target.value })}
        error={state.errors.body}
      />
      {state.message ? <Alert tone="error">{state.message}</Alert> : null}
      <div className="flex gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save changes"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Edit (the author) and delete (the author, moderators, the owner) on the post page. */
export function PostManage({
  target,
  canEdit,
  initial,
}: {
  target: { id: string; slug: string };
  canEdit: boolean;
  initial: EditPostState["values"];
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setDeleting(true);
    setError(null);
    const answer = await deletePost(target).catch(() => ({
      ok: false as const,
      error: "We couldn't delete the post — try again in a moment.",
    }));
    if (!answer.ok) {
      setDeleting(false);
      return setError(answer.error);
    }
    router.push(`/r/${target.slug}`);
  }

  if (editing) return <EditPostForm target={target} initial={initial} onDone={() => setEditing(false)} />;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-3">
        {canEdit ? (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit post
          </Button>
        ) : null}
        {confirming ? (
          <>
            <Button variant="danger" disabled={deleting} onClick={() => void remove()}>
              {deleting ? "Deleting…" : "Yes, delete it"}
            </Button>
            <Button variant="ghost" disabled={deleting} onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </>
        ) : (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete post
          </Button>
        )}
      </div>
      {confirming && !deleting ? (
        <p className="text-sm text-muted">Delete this post{canEdit ? "" : " for everyone"}? Its file, if it has one, is deleted too.</p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}

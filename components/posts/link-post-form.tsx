"use client";

import { useActionState, useRef, useState } from "react";
import { createLinkPost } from "@/lib/posts/actions";
import type { LinkPostState } from "@/lib/posts/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { MentionTextArea } from "@/components/mentions/mention-textarea";

type PostValidation = typeof import("@/lib/validation/post");
const empty = { title: "", body: "", url: "" };

/**
 * Share a link: checked in the browser with the schema the server action uses (loaded when the form
 * is first focused), then posted. The fields are controlled and only cleared once a post is made.
 */
export function LinkPostForm({ room }: { room: { id: string; slug: string } }) {
  const [values, setValues] = useState(empty);
  const [clientErrors, setClientErrors] = useState<LinkPostState["errors"] | null>(null);
  const [state, action, pending] = useActionState(
    async (previous: LinkPostState, formData: FormData) => {
      const answer = await createLinkPost(room, previous, formData);
      if (answer.status === "posted") setValues(empty);
      return answer;
    },
    { status: "idle", values: empty, errors: {} } satisfies LinkPostState,
  );
  const validation = useRef<PostValidation | null>(null);
  const errors = clientErrors ?? state.errors;
  const bind = (name: keyof typeof empty) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <form
      action={action}
      noValidate
      aria-label="Share a link"
      className="flex flex-col gap-4"
      onFocus={() => {
        if (!validation.current)
          void import("@/lib/validation/post").then(
            (module) => (validation.current = module),
            () => {},
          );
      }}
      onSubmit={(event) => {
        const rules = validation.current;
        if (!rules) return setClientErrors(null);
        const parsed = rules.linkPostSchema.safeParse(values);
        if (parsed.success) return setClientErrors(null);
        event.preventDefault();
        const found: LinkPostState["errors"] = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0] as keyof typeof empty;
          found[key] ??= issue.message;
        }
        setClientErrors(found);
      }}
    >
      <TextField
        id="url"
        label="Link"
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/watch?v=…"
        autoComplete="off"
        spellCheck={false}
        {...bind("url")}
        error={errors.url}
        hint="YouTube, Vimeo, SoundCloud, Spotify, Twitch, TikTok, Wistia, Mux or a direct https audio/video link."
      />
      <TextField id="title" label="Title" maxLength={200} {...bind("title")} error={errors.title} />
      <MentionTextArea
        id="body"
        roomId={room.id}
        label="Say something about it (optional)"
        value={values.body}
        onValueChange={(body) => setValues((current) => ({ ...current, body }))}
        error={errors.body}
      />
      {state.message && !clientErrors ? <Alert tone="error">{state.message}</Alert> : null}
      {state.status === "posted" && !clientErrors ? (
        <Alert tone={state.notice ? "info" : "success"}>{state.notice ? `Posted. ${state.notice}` : "Posted."}</Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Posting…" : "Post link"}
        </Button>
      </div>
    </form>
  );
}

import { useId } from "react";
import { SelectField } from "@/components/ui/field";
import type { SessionPost } from "@/lib/sessions/types";

/** A labelled choice of one of the room's posts (value "" for `none`), filling the rest of its row. */
export function PostSelect({
  label,
  none,
  posts,
  value,
  onChange,
}: {
  label: string;
  none: string;
  posts: readonly SessionPost[];
  value: string;
  onChange: (postId: string) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-0 flex-1">
      <SelectField id={id} label={label} value={value} onChange={(event) => onChange(event.target.value)} className="min-w-0">
        <option value="">{none}</option>
        {posts.map((post) => (
          <option key={post.id} value={post.id}>
            {post.title}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

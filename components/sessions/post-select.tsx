import type { SessionPost } from "@/lib/sessions/types";

/** A labelled choice of one of the room's posts (value "" for `none`). */
export function PostSelect({ label, none, posts, value, onChange }: { label: string; none: string; posts: readonly SessionPost[]; value: string; onChange: (postId: string) => void }) {
  return (
    <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} className="min-h-10 w-full min-w-0 rounded-lg border border-line bg-raised px-2 text-base">
        <option value="">{none}</option>
        {posts.map((post) => (
          <option key={post.id} value={post.id}>
            {post.title}
          </option>
        ))}
      </select>
    </label>
  );
}

// What the post forms get back from their Server Actions (./actions.ts), shared by both.
import type { Failure, Success } from "@/lib/result";
import type { FieldErrors } from "@/lib/validation/profile";
import type { LinkPostInput, PostEditInput } from "@/lib/validation/post";

export interface LinkPostState {
  status: "idle" | "posted" | "error";
  values: LinkPostInput;
  errors: FieldErrors<LinkPostInput>;
  message?: string;
  /** Said after a post was made: e.g. its link's details could not be read. */
  notice?: string;
  postId?: string;
}

export interface EditPostState {
  status: "idle" | "saved" | "error";
  values: PostEditInput;
  errors: FieldErrors<PostEditInput>;
  message?: string;
}

/** An upload's steps and a delete: a refusal may name the field it concerns ("file"). */
export type PostResult<T = null> = Success<T> | (Failure & { field?: string });

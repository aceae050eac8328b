import { buttonClasses } from "@/components/ui/button";
import { PostComposer } from "../post-composer";

/**
 * "Add a post": a button that opens the composer. A native disclosure, so it opens before (or
 * without) the page's JavaScript, and closing it only hides the form: what was typed stays.
 */
export function AddPost({ room, primary }: { room: { id: string; slug: string }; primary: boolean }) {
  return (
    <details className="group flex flex-col" data-testid="add-post" data-add-post="">
      <summary
        className={buttonClasses(
          primary ? "primary" : "secondary",
          "min-h-11 w-fit cursor-pointer list-none [&::-webkit-details-marker]:hidden group-open:mb-3",
        )}
      >
        <span aria-hidden="true">+</span> Add a post
      </summary>
      <PostComposer room={room} />
    </details>
  );
}

"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { joinRoomAction } from "@/lib/rooms/actions";
import type { MembershipFormState } from "@/lib/rooms/form-state";

const idle: MembershipFormState = { status: "idle" };

/** The comment box that joining opens; focused once it is there (the page re-renders around the player, which keeps playing). */
const composerSelector = 'form[aria-label="Add a comment"] textarea';

/**
 * Started when the join is sent: this form is gone once the page re-renders with the person as a
 * member, so the look-out outlives it; a refusal never shows a comment box, and it gives up.
 */
function focusComposerWhenShown(): void {
  const until = performance.now() + 15_000;
  const look = () => {
    const field = document.querySelector<HTMLTextAreaElement>(composerSelector);
    if (field) field.focus();
    else if (performance.now() < until && !document.querySelector("[data-join-refused]")) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/**
 * "Join to comment" where the person is (a post's page): the same join as the room page's — a form
 * posting to its Server Action, so it works without JavaScript; a gated room's goes through the
 * join-room check. Joined, the page re-renders in place (the player is not remounted, so playback
 * goes on) and the comment box opens; refused, the reason shows here, with the way to link a wallet.
 */
export function JoinInPlace({
  roomId,
  roomName,
  gated,
  label = "Join to comment",
}: {
  roomId: string;
  roomName: string;
  gated: boolean;
  label?: string;
}) {
  const [state, action, pending] = useActionState(joinRoomAction, idle);
  const router = useRouter();
  // The action's answer usually brings the page as it now is; if it did not, ask for it.
  useEffect(() => {
    if (state.status === "joined") router.refresh();
  }, [state, router]);
  return (
    <form action={action} onSubmit={focusComposerWhenShown} className="flex flex-col items-start gap-2 sm:items-end">
      <input type="hidden" name="roomId" value={roomId} />
      <Button type="submit" variant="primary" disabled={pending || state.status === "joined"} className="min-h-11">
        {pending ? (gated ? "Checking your wallets…" : "Joining…") : state.status === "joined" ? "Joined" : label}
      </Button>
      <span className="sr-only" role="status">
        {state.status === "joined" ? `You joined ${roomName}. The comment box is open.` : ""}
      </span>
      {state.status === "error" ? (
        <p role="alert" className="text-sm text-danger" data-join-refused>
          {state.message}
          {state.linkWallet ? (
            <>
              {" "}
              <Link href="/account#wallets" className={linkClasses}>
                Link a wallet on your account page
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
    </form>
  );
}

"use client";

import Link from "next/link";
import { useActionState } from "react";
import { joinRoomAction, leaveRoomAction } from "@/lib/rooms/actions";
import type { MembershipFormState } from "@/lib/rooms/form-state";
import { Button } from "@/components/ui/button";
import { noteOwnLeave } from "@/lib/realtime/room-messages";
import { linkClasses } from "@/components/ui/link";

const idle: MembershipFormState = { status: "idle" };

/**
 * Join or Leave, as a form posting to a Server Action (so it works before JavaScript loads); the
 * refusal, when there is one, shows under the button, with the way to link a wallet.
 */
export function MembershipForm({ roomId, mode, gated }: { roomId: string; mode: "join" | "leave"; gated: boolean }) {
  const [state, action, pending] = useActionState(mode === "join" ? joinRoomAction : leaveRoomAction, idle);
  const label =
    mode === "join" ? (pending ? (gated ? "Checking your wallets…" : "Joining…") : "Join this room") : pending ? "Leaving…" : "Leave room";
  return (
    <form action={action} onSubmit={mode === "leave" ? () => noteOwnLeave(roomId) : undefined} className="flex flex-col items-start gap-2">
      <input type="hidden" name="roomId" value={roomId} />
      <Button type="submit" variant={mode === "join" ? "primary" : "secondary"} disabled={pending}>
        {label}
      </Button>
      {state.status === "error" ? (
        <p role="alert" className="text-sm text-danger">
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

"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { startSessionAction } from "@/lib/sessions/actions";
import type { StartSessionState } from "@/lib/sessions/form-state";

const idle: StartSessionState = { status: "idle" };

/** "Start listening together" as a form posting to a Server Action (works before JavaScript loads). */
export function StartSessionForm({ roomId, slug }: { roomId: string; slug: string }) {
  const [state, action, pending] = useActionState(startSessionAction, idle);
  return (
    <form action={action} className="flex flex-col items-start gap-2">
      <input type="hidden" name="roomId" value={roomId} />
      <input type="hidden" name="slug" value={slug} />
      {/* The room's primary action, until "Add a post" is open: then its form's button is (app/globals.css). */}
      <Button type="submit" disabled={pending} data-room-primary="">
        {pending ? "Starting…" : "Start listening together"}
      </Button>
      {state.status === "error" ? (
        <p role="alert" className="text-sm text-danger">
          {state.message}
          {state.live ? (
            <>
              {" "}
              <a href={`/r/${slug}/listen`} className={linkClasses}>
                Join the session
              </a>
            </>
          ) : null}
        </p>
      ) : null}
    </form>
  );
}

"use client";

import { useActionState, useState } from "react";
import { deleteRoom } from "@/lib/rooms/actions";
import type { DeleteRoomState } from "@/lib/rooms/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

/** Owner only: deleting the room, its members and its cover, confirmed by typing its address. */
export function DeleteRoomForm({ roomId, slug }: { roomId: string; slug: string }) {
  const [state, action, pending] = useActionState(deleteRoom.bind(null, roomId), { confirmation: "" } as DeleteRoomState);
  const [confirmation, setConfirmation] = useState(() => state.confirmation);
  const confirmed = confirmation.trim() === slug;
  return (
    <form action={action} aria-labelledby="delete-room-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="delete-room-heading" className="text-lg font-semibold text-danger">
          Delete this room
        </h2>
        <p className="text-sm text-muted">Its members, posts and cover go with it. This cannot be undone.</p>
      </div>
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      <TextField
        id="confirmation"
        label={`Type ${slug} to confirm`}
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
      />
      <div>
        <Button type="submit" variant="danger" disabled={!confirmed || pending}>
          {pending ? "Deleting…" : "Delete room"}
        </Button>
      </div>
    </form>
  );
}

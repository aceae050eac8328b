"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { removeMember, setMemberRole } from "@/lib/rooms/actions";
import { Button } from "@/components/ui/button";
import { networkMessage } from "@/lib/auth/messages";
import { type Result, fail } from "@/lib/result";

export interface MemberPermissions {
  promote: boolean;
  demote: boolean;
  remove: boolean;
}

/** The buttons the viewer's role allows on one member; Postgres still decides each click. */
export function MemberActions({ roomId, userId, name, can }: { roomId: string; userId: string; name: string; can: MemberPermissions }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function run(write: () => Promise<Result>) {
    setError(null);
    startTransition(async () => {
      const result = await write().catch(() => fail(networkMessage));
      if (!result.ok) setError(result.error);
      else router.refresh();
    });
  }

  if (!can.promote && !can.demote && !can.remove) return null;
  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2">
        {can.promote ? (
          <Button
            variant="secondary"
            disabled={pending}
            aria-label={`Make ${name} a moderator`}
            onClick={() => run(() => setMemberRole(roomId, userId, "moderator"))}
          >
            Make moderator
          </Button>
        ) : null}
        {can.demote ? (
          <Button
            variant="secondary"
            disabled={pending}
            aria-label={`Make ${name} a member`}
            onClick={() => run(() => setMemberRole(roomId, userId, "member"))}
          >
            Make member
          </Button>
        ) : null}
        {can.remove ? (
          <Button variant="danger" disabled={pending} aria-label={`Remove ${name}`} onClick={() => run(() => removeMember(roomId, userId))}>
            Remove
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

import Link from "next/link";
import { Avatar } from "@/components/avatar";
import { linkClasses } from "@/components/ui/link";
import { WalletAddress } from "@/components/wallet-address";
import type { RoomMember } from "@/lib/rooms/members";
import { MemberModeration } from "@/components/moderation/member-moderation";
import { MemberActions, type MemberPermissions } from "./member-actions";

const roleNames = { owner: "Owner", moderator: "Moderator", member: "Member" } as const;

/** What the viewer's role may do to a member: the UI's copy of Postgres' rules (which decide). */
function permissions(viewer: { id: string; role: "owner" | "moderator" }, member: RoomMember): MemberPermissions {
  if (member.userId === viewer.id || member.role === "owner") return { promote: false, demote: false, remove: false };
  if (viewer.role === "owner") return { promote: member.role === "member", demote: member.role === "moderator", remove: true };
  return { promote: false, demote: false, remove: member.role === "member" };
}

export function MembersList({
  roomId,
  viewer,
  members,
  total,
}: {
  roomId: string;
  viewer: { id: string; role: "owner" | "moderator" };
  members: RoomMember[];
  total: number;
}) {
  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members
        </h2>
        <p className="text-sm text-muted">
          {total === 1 ? "1 member" : `${total} members`}
          {members.length < total ? `, the first ${members.length} shown` : ""}
        </p>
      </div>
      <p className="text-sm text-muted">
        {viewer.role === "owner"
          ? "You make members moderators and back, and remove, time out or ban anyone. Moderators do that to members."
          : "As a moderator you remove, time out or ban members. Only the owner changes roles."}
      </p>
      <ul className="flex flex-col divide-y divide-line">
        {members.map((member) => (
          <li key={member.userId} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="flex min-w-0 items-center gap-3">
              <Avatar path={member.avatarPath} name={member.displayName} size={40} />
              <div className="flex min-w-0 flex-col">
                <p className="flex min-w-0 flex-wrap items-center gap-x-2">
                  <Link href={`/u/${member.username}`} className={`truncate font-medium ${linkClasses}`}>
                    {member.displayName}
                  </Link>
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-muted">
                    {roleNames[member.role]}
                  </span>
                  {member.userId === viewer.id ? <span className="text-xs text-muted">(you)</span> : null}
                </p>
                <p className="truncate text-sm text-muted">@{member.username}</p>
                {member.wallet ? (
                  <div className="text-sm text-muted">
                    <WalletAddress
                      address={member.wallet.address}
                      ensName={member.wallet.ensName}
                      ensAvatar={member.wallet.ensAvatar}
                      size={18}
                    />
                  </div>
                ) : null}
              </div>
            </div>
            <div className="flex flex-col items-start gap-2 sm:items-end">
              <MemberActions roomId={roomId} userId={member.userId} name={member.displayName} can={permissions(viewer, member)} />
              {/* Whoever the viewer may remove, they may also time out or ban (Postgres holds the same rule). */}
              {permissions(viewer, member).remove ? (
                <MemberModeration roomId={roomId} userId={member.userId} name={member.displayName} />
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
